import { lockForm } from '../../db/repositories/forms.js';
import { insertRetiredLink, replaceRecipientLink } from '../../db/repositories/link-replacement.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { findRecipientCheck, insertRecipientCheck, removeRecipientCheck, resetRecipientCheck } from '../../db/repositories/signer-checks.js';
import { endSignerSessions } from '../../db/repositories/signer-sessions.js';
import { deleteRecipientDraft } from '../../db/repositories/signing-drafts.js';
import { deleteAttachment, listRecipientAttachments } from '../../db/repositories/form-attachments.js';
import type { Trx } from '../../db/handles.js';
import type { FormRow, LinkReplacedBy, RecipientRow } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { formJson, formState, type FormState, type FormView } from '../forms/present-form.js';
import { recordFormEvent } from '../forms/record-event.js';
import { normaliseRecipients, type NormalisedRecipient } from '../sending/recipient-rules.js';
import type { CheckInput } from '../signing/gate/check-rules.js';
import { hashPassword } from '../users/passwords.js';
import { enqueueSenderNotice } from '../sending/sender-notice.js';
import { inviteRecipient, messageContextOf } from './advance-turn.js';
import { ACTIVE, checkReason, hasFinished } from './lifecycle-rules.js';
import { refuseClosedLink } from './closed-links.js';
import { formFields, loadForm } from '../forms/read-forms.js';
import type { Json } from '../json.js';
import type { SigningLink } from '../signing/resolve-link.js';
import { lockLinkForm } from '../signing/lock-link-form.js';
import { isoNow } from '../../lib/clock.js';

// Issue 38 item 5: a recipient who has not signed is changed (the sender corrects them, or the signer
// passes the form on). The recipient keeps its id — its fields, signer slot, place in the order and
// every reference an API client holds stay valid — and moves to its next link generation
// (lib/signing-links.ts), so the old link's token no longer finds it. The old token's hash goes to
// `retired_links` with who the recipient was, which is how the old link answers 410 (its page says so
// in the signer's language) and how the audit trail keeps both people. All in ONE unit: the retired
// link, the row, the check reset, the old sessions, draft and unsigned files ended, the invitation and `form.reassigned`.

/** What may change: `auth: null` removes the check; an absent member is kept. */
export interface RecipientChange {
  email?: string | undefined;
  phone?: string | undefined;
  name?: string | undefined;
  auth?: CheckInput | null | undefined;
}

/** A change checked by the send's rules (one rule per kind of value) before any transaction. */
export interface PreparedChange {
  readonly next: NormalisedRecipient;
  /** Undefined: keep the recipient's check (reset for the new person); null: none; else the new one. */
  readonly check: NormalisedRecipient['check'] | undefined;
  /** The new access code's scrypt hash (slow on purpose, so computed before the transaction). */
  readonly accessHash: string | null;
}

/**
 * The change applied to `current`, checked by the send's rules. The channel follows the address
 * given: an `email` alone makes an e-mail recipient, a `phone` alone an SMS one; both or neither keep
 * it. Refusals name the member of the body (`email`, `auth.phone`), not the send's `recipients[0]`.
 */
export async function prepareChange(current: Pick<RecipientRow, 'name' | 'email' | 'phone' | 'channel' | 'locale'>, change: RecipientChange, paramPrefix = ''): Promise<PreparedChange> {
  const channel = change.email !== undefined && change.phone === undefined ? 'email' : change.phone !== undefined && change.email === undefined ? 'sms' : current.channel;
  const email = change.email ?? current.email ?? undefined;
  const phone = change.phone ?? current.phone ?? undefined;
  let next: NormalisedRecipient;
  try {
    [next] = normaliseRecipients([{ channel, email, phone, name: change.name ?? current.name ?? undefined, auth: change.auth ?? undefined }]) as [NormalisedRecipient];
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const strip = (s: string) => s.replaceAll('recipients[0].', paramPrefix);
    throw new AppError(err.code, strip(err.message), err.param === undefined ? undefined : strip(err.param), err.headers);
  }
  const check = change.auth === undefined ? undefined : change.auth === null ? null : next.check;
  const accessHash = check?.accessCode ? await hashPassword(check.accessCode) : null;
  return { next, check, accessHash };
}

/** The form's state after a change, and the blob keys of the old person's files to delete once it commits. */
export interface Replaced {
  readonly state: FormState;
  readonly droppedFiles: readonly string[];
}

/** Who changes the recipient and why (the signer's reason; the sender gives none). */
export interface ReplacedBy {
  readonly by: LinkReplacedBy;
  readonly reason: string | null;
}

/**
 * Replaces `recipientId`'s link in the caller's unit, on a form locked by it. Returns the form's state
 * after the change (the caller presents it). Refuses a recipient who signed or declined, a form that
 * is over, and an address that is another recipient's of the form.
 */
export async function replaceRecipient(
  trx: Trx,
  deps: Pick<DomainDeps, 'links' | 'baseUrl'>,
  p: Partition,
  form: FormRow,
  recipientId: string,
  change: PreparedChange,
  who: ReplacedBy,
  now: string,
): Promise<Replaced> {
  if (!ACTIVE.has(form.status)) throw new AppError('form_not_sendable', `This form is ${form.status}; only the recipients of a sent or viewed form can be changed.`);
  if (form.expires_at !== null && form.expires_at <= now) throw new AppError('form_expired', `This form expired at ${form.expires_at}; its recipients can no longer be changed.`);
  const recipients = await listRecipientsOfForm(trx, p, form.id);
  const current = recipients.find((r) => r.id === recipientId);
  if (!current) throw notFound('recipient', recipientId, 'recipient_id');
  if (hasFinished(current)) throw new AppError('form_not_sendable', `This recipient has ${current.status}; only a recipient who has not signed, approved or declined can be changed.`);
  const { next } = change;
  const other = recipients.find((r) => r.id !== current.id && r.channel === next.channel && r.address_key === next.addressKey);
  if (other) throw new AppError('form_already_sent', `${next.addressKey} is already a recipient of this form (${other.id}).`, next.channel === 'email' ? 'email' : 'phone');
  const generation = current.link_generation + 1;
  await insertRetiredLink(trx, p, {
    token_hash: current.token_hash, form_id: form.id, recipient_id: current.id, generation: current.link_generation,
    name: current.name, email: current.email, phone: current.phone, channel: current.channel, locale: current.locale,
    replaced_by: who.by, reason: who.reason, retired_at: now,
  });
  const moved = await replaceRecipientLink(trx, p, current, {
    name: next.name, email: next.email, phone: next.phone, channel: next.channel, address_key: next.addressKey,
    token_hash: deps.links.tokenHash(deps.links.token(current.id, generation)), link_generation: generation,
  }, now);
  if (!moved) throw new AppError('form_not_sendable', 'This recipient changed meanwhile (signed, declined or corrected by another request); read the form and try again.');
  // The old person's browser sessions and typed values are theirs, not the new person's.
  await endSignerSessions(trx, p, current.id);
  await deleteRecipientDraft(trx, p, current.id);
  // So are the files they attached and did not sign with (a signature would have submitted them).
  const dropped = (await listRecipientAttachments(trx, p, current.id)).filter((a) => a.submitted_at === null);
  for (const a of dropped) await deleteAttachment(trx, p, a.id);
  await applyCheck(trx, p, form, current, moved, change, now);
  // A `waiting` recipient of a sequential form is invited when their turn comes, with the new link;
  // the invitation wears the account's brand like every other (messageContextOf).
  if (moved.status !== 'waiting') await inviteRecipient(trx, deps, p, await messageContextOf(trx, deps, p, form), moved, now, { reminders: false });
  // The signer's own decision is news to the sender: their notification address is told (as of a decline).
  if (who.by === 'signer') await enqueueSenderNotice(trx, { partition: p, now }, form, { kind: 'reassigned', recipient: moved, previous: current, reason: who.reason });
  const state = formState(form, recipients.map((r) => (r.id === moved.id ? moved : r)));
  await recordFormEvent(trx, p, 'form.reassigned', state, now, { reassignment: { recipient_id: current.id, replaced_by: who.by } });
  return { state, droppedFiles: dropped.map((a) => a.blob_key) };
}

/** After the change committed: the old person's files leave the blob store (a failure leaves an orphan the form's purge empties). */
async function deleteDroppedFiles(deps: Pick<DomainDeps, 'blobs'>, keys: readonly string[]): Promise<void> {
  for (const key of keys) await deps.blobs.delete(key).catch(() => undefined);
}

/**
 * The recipient's check after the change: replaced or removed when the change says so; else kept and
 * reset (no live code, no wrong tries, no lock: a new person), its SMS number following the
 * recipient's when it was theirs. A kept check must still have somewhere to send its code.
 */
async function applyCheck(trx: Trx, p: Partition, form: FormRow, before: RecipientRow, after: RecipientRow, change: PreparedChange, now: string): Promise<void> {
  const existing = await findRecipientCheck(trx, p, before.id);
  if (change.check !== undefined) {
    if (existing) await removeRecipientCheck(trx, p, before.id);
    if (change.check === null) return;
    const c = change.check;
    await insertRecipientCheck(trx, {
      recipient_id: before.id, account_id: p.accountId, mode: p.mode, form_id: form.id, method: c.method, check_when: c.when, phone: c.phone,
      access_code_hash: change.accessHash, code_hash: null, code_purpose: null, code_expires_at: null, locked_until: null, created_at: now, updated_at: now,
    });
    return;
  }
  if (!existing) return;
  if (existing.method === 'email_code' && after.email === null) throw new AppError('parameter_invalid', "This recipient's check sends its code by e-mail: give an email, or a new auth.", 'auth');
  const phone = existing.method === 'sms_code' && existing.phone === before.phone && after.phone !== null ? after.phone : existing.phone;
  await resetRecipientCheck(trx, p, before.id, phone, now);
}

/**
 * `PATCH /forms/{id}/recipients/{recipient_id}`: the sender corrects a recipient who has not signed.
 * At least one member (the schema says so; checked again here for callers without it).
 */
export async function updateRecipient(
  deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'links' | 'blobs' | 'baseUrl'>,
  p: Partition,
  formId: string,
  recipientId: string,
  change: RecipientChange,
): Promise<Json<FormView>> {
  if (change.email === undefined && change.phone === undefined && change.name === undefined && change.auth === undefined) {
    throw new AppError('parameter_missing', 'Give at least one of email, phone, name or auth.');
  }
  const row = await loadForm(deps, p, formId);
  const current = (await listRecipientsOfForm(deps.db, p, row.id)).find((r) => r.id === recipientId);
  if (!current) throw notFound('recipient', recipientId, 'recipient_id');
  const prepared = await prepareChange(current, change);
  const fields = await formFields(deps, p, row);
  const now = isoNow(deps.clock);
  const { state, droppedFiles } = await deps.transact(async (trx) => {
    const form = await lockForm(trx, p, formId, now);
    if (!form) throw notFound('form', formId);
    return replaceRecipient(trx, deps, p, form, recipientId, prepared, { by: 'sender', reason: null }, now);
  });
  await deleteDroppedFiles(deps, droppedFiles);
  return formJson(state, fields, deps.links);
}

/** `POST /sign/<token>/reassign` as the page posts it: the new person and why. */
export interface SignerReassignInput {
  email?: unknown;
  phone?: unknown;
  name?: unknown;
  reason?: unknown;
}

/**
 * The signer passes the form to someone else (a form sent with `allow_reassign`): their link stops
 * working at once, the new person is invited on the channel of the address given, and the sender hears
 * of it (`form.reassigned`, `replaced_by: signer`, with the reason in the audit trail). The recipient's
 * check, if any, stays and is asked of the new person; a check whose code went to the old person's own
 * number is moved to the new number, and an e-mail code needs an e-mail.
 */
export async function reassignFromSigningPage(deps: Pick<DomainDeps, 'transact' | 'clock' | 'links' | 'blobs' | 'baseUrl'>, link: SigningLink, input: SignerReassignInput): Promise<{ reassignedAt: string }> {
  refuseClosedLink(link);
  if (link.form.allow_reassign !== 1) throw new AppError('form_not_sendable', 'The sender did not allow this document to be passed to someone else.');
  const text = (v: unknown, param: string): string | undefined => {
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') throw new AppError('parameter_invalid', `${param} must be a string.`, param);
    return v;
  };
  const email = text(input.email, 'email');
  const phone = text(input.phone, 'phone');
  if (email === undefined && phone === undefined) throw new AppError('parameter_missing', 'Give the e-mail address (or phone number) of the person who should sign.', 'email');
  const reason = checkReason(input.reason, 'reason');
  if (reason === null) throw new AppError('parameter_missing', 'Say why you are passing this document on.', 'reason');
  const prepared = await prepareChange(link.recipient, { email, phone, name: text(input.name, 'name') });
  const { partition: p } = link;
  const at = isoNow(deps.clock);
  const { droppedFiles } = await deps.transact(async (trx) => {
    const { locked: form } = await lockLinkForm(trx, link, at);
    return replaceRecipient(trx, deps, p, form, link.recipient.id, prepared, { by: 'signer', reason }, at);
  });
  await deleteDroppedFiles(deps, droppedFiles);
  return { reassignedAt: at };
}
