import type { FormRow, FormStatus, RecipientRow, RecipientStatus, SigningOrder } from '../../db/tables.js';
import { AppError } from '../errors.js';
import { checkFieldValue } from '../forms/value-rules.js';
import { actsInTurn, isDone } from '../sending/recipient-roles.js';

// Pure rules of a form's life after sending (issue #23): whose turn it is, the reminder schedule, and
// the free-text reasons of a decline or a void. Unit-tested without a database.

export const DAY_MS = 86_400_000;
/** A recipient is reminded at most this often by hand (`remindForm`). */
export const MANUAL_REMINDER_GAP_MS = 3_600_000;
export const MAX_REASON_CHARS = 500;

/** The statuses in which a form is out with its recipients: the only ones where anything still happens. */
export const ACTIVE: ReadonlySet<FormStatus> = new Set(['sent', 'viewed']);

export interface ReminderSchedule {
  every_days: number;
  max: number;
}

export interface LifecycleInput {
  signing_order?: SigningOrder | undefined;
  reminders?: ReminderSchedule | undefined;
  /** Issue 38: the signer may pass the form to someone else from their page. */
  allow_reassign?: boolean | undefined;
}

type Fixed = Pick<FormRow, 'signing_order' | 'reminder_every_days' | 'reminder_max' | 'allow_reassign'>;

/**
 * What a send fixes: the first send sets the order (default parallel) and the reminder schedule; a
 * later send may repeat them but not change them (the recipients already messaged were promised them).
 */
export function fixLifecycle(form: Pick<FormRow, 'signing_order' | 'reminder_every_days' | 'reminder_max'> & Partial<Pick<FormRow, 'allow_reassign'>>, input: LifecycleInput): Fixed {
  if (form.signing_order === null) {
    return { signing_order: input.signing_order ?? 'parallel', reminder_every_days: input.reminders?.every_days ?? null, reminder_max: input.reminders?.max ?? null, allow_reassign: input.allow_reassign === true ? 1 : 0 };
  }
  const allowReassign = form.allow_reassign ?? 0;
  if (input.allow_reassign !== undefined && (input.allow_reassign ? 1 : 0) !== allowReassign) {
    throw new AppError('parameter_invalid', `This form's allow_reassign was fixed as ${allowReassign === 1} by its first send; it cannot change.`, 'allow_reassign');
  }
  if (input.signing_order !== undefined && input.signing_order !== form.signing_order) {
    throw new AppError('parameter_invalid', `This form's signing order was fixed as ${form.signing_order} by its first send; it cannot change.`, 'signing_order');
  }
  if (input.reminders !== undefined && (input.reminders.every_days !== form.reminder_every_days || input.reminders.max !== form.reminder_max)) {
    throw new AppError('parameter_invalid', "This form's reminders were fixed by its first send; they cannot change.", 'reminders');
  }
  return { signing_order: form.signing_order, reminder_every_days: form.reminder_every_days, reminder_max: form.reminder_max, allow_reassign: allowReassign };
}

/** Recipients in the order they sign in a sequential form: by signer slot, then as first sent. */
export function inSigningOrder<R extends Pick<RecipientRow, 'signer' | 'position'>>(recipients: readonly R[]): R[] {
  return [...recipients].sort((a, b) => a.signer - b.signer || a.position - b.position);
}

/**
 * The recipient whose turn has come and who has not been messaged yet, if any: in a sequential form
 * the first one (in signing order) who has not done their part (signed, approved, viewed), when it is
 * still `waiting`. Everyone before it is done; nobody after it is messaged until it has.
 */
export function nextInTurn<R extends Pick<RecipientRow, 'signer' | 'position' | 'status' | 'role'>>(recipients: readonly R[]): R | undefined {
  // A cc is told at once and takes no turn; the others' turn passes when they have done their part.
  const first = inSigningOrder(recipients).find((r) => actsInTurn(r.role) && !isDone(r));
  return first?.status === 'waiting' ? first : undefined;
}

/** Statuses a recipient does not leave: their answer (a signature, an approval, a decline) is theirs. */
export const FINISHED: ReadonlySet<RecipientStatus> = new Set(['signed', 'approved', 'declined']);

/**
 * Whether the recipient has given their answer, which stays with the person who gave it (so they can
 * no longer be changed for someone else). Not `isDone`: a cc is always done and a viewer's view is no answer.
 */
export function hasFinished(r: Pick<RecipientRow, 'status'>): boolean {
  return FINISHED.has(r.status);
}

/** When each scheduled reminder of a recipient messaged at `messagedAt` is due (1-based `seq`). */
export function reminderTimes(messagedAt: string, schedule: ReminderSchedule): Array<{ seq: number; at: string }> {
  const start = Date.parse(messagedAt);
  return Array.from({ length: schedule.max }, (_, i) => ({ seq: i + 1, at: new Date(start + (i + 1) * schedule.every_days * DAY_MS).toISOString() }));
}

/** A recipient who was messaged and has not yet done their part (signed, approved, opened) or declined; never a cc. */
export function remindable(r: Pick<RecipientRow, 'status' | 'role'>): boolean {
  return (r.status === 'sent' || r.status === 'viewed') && actsInTurn(r.role) && !isDone(r);
}

/**
 * A decline's or a void's reason, by the rule every text value follows (value-rules.js: a string,
 * within its length), at most 500 characters; blank is no reason.
 */
export function checkReason(raw: unknown, param: string): string | null {
  if (raw === undefined || raw === null) return null;
  const checked = checkFieldValue({ name: param, type: 'text', label: 'The reason', max_length: MAX_REASON_CHARS }, raw);
  if (!checked.ok) throw new AppError('parameter_invalid', `The reason ${checked.problem}`, param);
  const text = String(checked.value).trim();
  return text === '' ? null : text;
}
