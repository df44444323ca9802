import { lockForm, updateForm } from '../../db/repositories/forms.js';
import { setFormCompletedCopy } from '../../db/repositories/notify-settings.js';
import { insertRecipient, listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { insertRecipientCheck } from '../../db/repositories/signer-checks.js';
import type { FormRow, RecipientRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { commit, type PreparedWrite } from '../prepared-write.js';
import { AppError, notFound } from '../errors.js';
import { recordFormEvent } from '../forms/record-event.js';
import { formFields, loadForm } from '../forms/read-forms.js';
import { formJson, formState, type FormView } from '../forms/present-form.js';
import type { Json } from '../json.js';
import { advanceTurn, inviteRecipient, messageContextOf } from '../lifecycle/advance-turn.js';
import { fixLifecycle, type LifecycleInput } from '../lifecycle/lifecycle-rules.js';
import { hashPassword } from '../users/passwords.js';
import { assignSigners, findAlreadySent, MAX_RECIPIENTS_PER_FORM, normaliseMessage, normaliseRecipients, normaliseSubject, refuseFieldsOfNonSigners, type RecipientInput } from './recipient-rules.js';
import { actsInTurn } from './recipient-roles.js';

const DAY_MS = 86_400_000;

/** The body of a send (openapi.yaml `SendFormRequest`). */
export type SendInput = {
  recipients: readonly RecipientInput[];
  notify?: { completed_copy?: boolean | undefined } | undefined;
  /** Issue 42: the sender's message (≤ 1,000 characters), the invitation's subject, the links' lifetime in days (1–365). */
  message?: string | undefined;
  subject?: string | undefined;
  expires_in_days?: number | undefined;
} & LifecycleInput;

/** A send's `expires_in_days`: a whole number of days from 1 to 365 (the create's rule). */
function checkExpiresInDays(raw: number | undefined): number | null {
  if (raw === undefined) return null;
  if (!Number.isInteger(raw) || raw < 1 || raw > 365) throw new AppError('parameter_invalid', 'expires_in_days must be a whole number of days from 1 to 365.', 'expires_in_days');
  return raw;
}
const SENDABLE: ReadonlySet<FormRow['status']> = new Set(['draft', 'sent', 'viewed']);

/**
 * Sends a form to new recipients, all or nothing, in ONE transaction: the recipients, the message
 * each one gets (composed now, so what was sent is what the dev outbox and the logs show), a delivery
 * job per message, the form's new status and the `form.sent` event. The messages go out from the job
 * worker after the commit; the call never waits for a mail server or gateway, and a crash can delay a
 * message but never lose it.
 */
export async function sendForm(
  deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'links' | 'baseUrl'>,
  p: Partition,
  formId: string,
  input: SendInput,
): Promise<Json<FormView>> {
  return commit(deps, prepareSendForm(deps, p, formId, input));
}

/** sendForm's reads and checks; the write it prepares is the whole send, returning the form's JSON. */
export async function prepareSendForm(
  deps: Pick<DomainDeps, 'db' | 'clock' | 'templateCache' | 'links' | 'baseUrl'>,
  p: Partition,
  formId: string,
  input: SendInput,
): Promise<PreparedWrite<Json<FormView>>> {
  const incoming = normaliseRecipients(input.recipients);
  // Issue 42: the sender's words for this call (a recipient's own message overrides the call's).
  const message = normaliseMessage(input.message, 'message');
  const subject = normaliseSubject(input.subject, 'subject');
  const expiresInDays = checkExpiresInDays(input.expires_in_days);
  // Access codes are hashed (scrypt, slow on purpose) before the transaction; only the hash is kept.
  const accessHashes = await Promise.all(incoming.map((r) => (r.check?.accessCode ? hashPassword(r.check.accessCode) : null)));
  // The field definitions never change, so they are read before the transaction (which may not touch
  // deps.db), and the response is built inside it: nothing that can fail runs after the commit.
  const fields = await formFields(deps, p, await loadForm(deps, p, formId));
  const now = isoNow(deps.clock);
  return async (trx) => {
    const form = await lockForm(trx, p, formId, now);
    if (!form) throw notFound('form', formId);
    if (!SENDABLE.has(form.status)) throw new AppError('form_not_sendable', `This form is ${form.status}; only a draft, sent or viewed form can be sent.`);
    if (form.expires_at !== null && form.expires_at <= now) throw new AppError('form_expired', `This form expired at ${form.expires_at}; it can no longer be sent.`);
    const existing = await listRecipientsOfForm(trx, p, form.id);
    const again = findAlreadySent(existing, incoming);
    if (again !== undefined) {
      const r = incoming[again]!;
      throw new AppError('form_already_sent', `This form was already sent to ${r.addressKey} by ${r.channel}; nothing was sent.`, `recipients[${again}]`);
    }
    if (existing.length + incoming.length > MAX_RECIPIENTS_PER_FORM) {
      throw new AppError('parameter_invalid', `A form can have at most ${MAX_RECIPIENTS_PER_FORM} recipients; it has ${existing.length} and this call adds ${incoming.length}.`, 'recipients');
    }
    const signers = assignSigners(existing.map((r) => r.signer), incoming);
    refuseFieldsOfNonSigners(fields.defs, incoming, signers);
    // `expires_in_days` of a send counts only on the first one: it fixes `expires_at`, as the create's does.
    if (expiresInDays !== null && form.expires_at !== null && expiresInDays !== form.expires_in_days) {
      throw new AppError('parameter_invalid', `This form's expiry was fixed by its first send (${form.expires_in_days} days, until ${form.expires_at}); it cannot change.`, 'expires_in_days');
    }
    const days = form.expires_at === null ? expiresInDays ?? form.expires_in_days : form.expires_in_days;
    const expiresAt = form.expires_at ?? new Date(Date.parse(now) + days * DAY_MS).toISOString();
    const fixed = fixLifecycle(form, input);
    const sequential = fixed.signing_order === 'sequential';
    const ctx = await messageContextOf(trx, deps, p, { ...form, ...fixed, expires_at: expiresAt });
    const added: RecipientRow[] = [];
    for (const [i, r] of incoming.entries()) {
      const id = newId('recipient');
      const row: RecipientRow = {
        id, account_id: p.accountId, mode: p.mode, form_id: form.id, position: existing.length + i, signer: signers[i]!,
        name: r.name, email: r.email, phone: r.phone, channel: r.channel, address_key: r.addressKey,
        token_hash: deps.links.tokenHash(deps.links.token(id)), link_generation: 0,
        // Sequential: messaged when its turn comes (advanceTurn, below and after each signature).
        // A cc takes no turn: told at once, whatever the order (recipient-roles.ts).
        status: sequential && actsInTurn(r.role) ? 'waiting' : 'sent', delivery_status: 'queued', delivery_error: null, sent_at: now, viewed_at: null, signed_at: null,
        viewed_ip: null, viewed_user_agent: null, signed_ip: null, signed_user_agent: null, created_at: now, updated_at: now,
        locale: r.locale,
        declined_at: null, decline_reason: null, last_reminded_at: null, meaning: r.meaning,
        role: r.role, message: r.message ?? message, subject, approved_at: null,
      };
      await insertRecipient(trx, p, row);
      const check = r.check;
      if (check) {
        await insertRecipientCheck(trx, {
          recipient_id: id, account_id: p.accountId, mode: p.mode, form_id: form.id, method: check.method, check_when: check.when, phone: check.phone,
          access_code_hash: accessHashes[i] ?? null, code_hash: null, code_purpose: null, code_expires_at: null, locked_until: null, created_at: now, updated_at: now,
        });
      }
      if (row.status === 'sent') await inviteRecipient(trx, deps, p, ctx, row, now);
      added.push(row);
    }
    const recipients = sequential ? await advanceTurn(trx, deps, p, ctx.form, now) : [...existing, ...added];
    const sent: FormRow = { ...form, ...fixed, status: form.status === 'draft' ? 'sent' : form.status, sent_at: form.sent_at ?? now, expires_at: expiresAt, expires_in_days: days, updated_at: now };
    await updateForm(trx, p, form.id, { status: sent.status, sent_at: sent.sent_at, expires_at: sent.expires_at, expires_in_days: days, updated_at: now, ...fixed });
    // `notify.completed_copy` is kept with the form: the seal reads it when the copies are due.
    if (input.notify?.completed_copy !== undefined) await setFormCompletedCopy(trx, p, form.id, input.notify.completed_copy);
    const state = formState(sent, recipients);
    await recordFormEvent(trx, p, 'form.sent', state, now);
    return formJson(state, fields, deps.links);
  };
}
