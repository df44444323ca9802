import { loadBrandLook } from '../branding/brand-look.js';
import { findAccount } from '../../db/repositories/accounts.js';
import { linkUrlOf } from '../../lib/signing-links.js';
import { lockForm } from '../../db/repositories/forms.js';
import { hasScheduledReminder, insertReminder, setRecipientReminded } from '../../db/repositories/lifecycle.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import type { Trx } from '../../db/handles.js';
import type { FormRow, RecipientRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { pickLocale } from '../../lib/i18n/index.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import type { JobHandler } from '../../outbox/job.js';
import type { PayloadOf } from '../../outbox/registry.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { formJson, formState, type FormView } from '../forms/present-form.js';
import { formFields, loadForm } from '../forms/read-forms.js';
import { recordFormEvent } from '../forms/record-event.js';
import type { Json } from '../json.js';
import { commit, type PreparedWrite } from '../prepared-write.js';
import { composeReminder } from '../sending/compose-message.js';
import { ACTIVE, MANUAL_REMINDER_GAP_MS, remindable } from './lifecycle-rules.js';
import { addressOf, queueMessage } from './message-recipient.js';

type RemindDeps = Pick<DomainDeps, 'links' | 'baseUrl'>;

/**
 * One reminder, in the caller's unit: the invite's facts again on the same channel with the same
 * link, the `reminders` row (the audit's record; a scheduled one numbered), the recipient's
 * `last_reminded_at`, and a `form.reminded` event. Returns the recipient as it now is.
 */
async function sendReminder(
  trx: Trx,
  deps: RemindDeps,
  p: Partition,
  form: FormRow,
  r: RecipientRow,
  what: { kind: 'scheduled' | 'manual'; seq: number | null; accountName: string; accountLocale: string | null },
  now: string,
): Promise<RecipientRow> {
  const message = composeReminder({
    // The recipient's role and the sender's message (issue 42), as the invite had them.
    role: r.role,
    message: r.message,
    // The account's brand (issue 42), as the invite had it.
    brand: await loadBrandLook(trx, deps.baseUrl, p.accountId, what.accountName),
    channel: r.channel, to: addressOf(r), recipientName: r.name, formName: form.name ?? 'a document',
    accountName: what.accountName, signingUrl: linkUrlOf(deps.links, r), expiresAt: form.expires_at,
    // The invite's language: the recipient's, else the account's default.
    locale: pickLocale([r.locale, what.accountLocale]),
  });
  const messageId = await queueMessage(trx, p, form.id, r, 'reminder', message, now);
  await insertReminder(trx, p, { id: newId('reminder'), form_id: form.id, recipient_id: r.id, seq: what.seq, kind: what.kind, message_id: messageId, created_at: now });
  await setRecipientReminded(trx, p, r.id, now);
  return { ...r, last_reminded_at: now, updated_at: now };
}

/** Whether the form is still out for signing at `now`: sent or viewed, and not past its expiry. */
function stillOut(form: FormRow, now: string): boolean {
  return ACTIVE.has(form.status) && (form.expires_at === null || form.expires_at > now);
}

/**
 * The `form.remind` job: scheduled reminder `seq` of one recipient. Decided and written in the unit
 * that marks the job done (its outcome), with the form's row locked: nothing when the form is no
 * longer out (signed, declined, voided, expired), the recipient has signed or declined, or this
 * reminder was already sent (its number is the promise: kept once, whichever worker ran it).
 */
export function formRemindHandler(deps: Pick<DomainDeps, 'clock' | 'links' | 'baseUrl'>): JobHandler<PayloadOf<'form.remind'>> {
  return {
    async run(payload, ctx) {
      const p = ctx.partition;
      return async (trx) => {
        const now = isoNow(deps.clock);
        const form = await lockForm(trx, p, payload.form_id, now);
        if (!form || !stillOut(form, now)) return;
        const recipients = await listRecipientsOfForm(trx, p, form.id);
        const r = recipients.find((x) => x.id === payload.recipient_id);
        if (!r || !remindable(r)) return;
        if (await hasScheduledReminder(trx, p, r.id, payload.seq)) return;
        const account = await findAccount(trx, p.accountId);
        const reminded = await sendReminder(trx, deps, p, form, r, { kind: 'scheduled', seq: payload.seq, accountName: account?.name ?? 'Formsign', accountLocale: account?.locale ?? null }, now);
        await recordFormEvent(trx, p, 'form.reminded', formState(form, recipients.map((x) => (x.id === r.id ? reminded : x))), now);
      };
    },
  };
}

/**
 * `POST /forms/{id}/remind`: a reminder now to the named recipients (default: every one messaged who
 * has not signed), all or nothing. A recipient reminded less than an hour ago (by hand or by the
 * schedule) refuses the whole call with 429 `reminder_too_soon` and `Retry-After`.
 */
export async function remindForm(
  deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'links' | 'baseUrl'>,
  p: Partition,
  formId: string,
  input: { recipients?: readonly string[] | undefined },
): Promise<Json<FormView>> {
  return commit(deps, prepareRemindForm(deps, p, formId, input));
}

/** remindForm's reads; the write it prepares checks the form under its lock and sends the reminders. */
export async function prepareRemindForm(
  deps: Pick<DomainDeps, 'db' | 'clock' | 'templateCache' | 'links' | 'baseUrl'>,
  p: Partition,
  formId: string,
  input: { recipients?: readonly string[] | undefined },
): Promise<PreparedWrite<Json<FormView>>> {
  // The field definitions never change: read before the transaction, so the answer is built inside it.
  const fields = await formFields(deps, p, await loadForm(deps, p, formId));
  const now = isoNow(deps.clock);
  return async (trx) => {
    const form = await lockForm(trx, p, formId, now);
    if (!form) throw notFound('form', formId);
    if (ACTIVE.has(form.status) && !stillOut(form, now)) throw new AppError('form_expired', `This form expired at ${form.expires_at}; its recipients can no longer be reminded.`);
    if (!ACTIVE.has(form.status)) throw new AppError('form_not_sendable', `This form is ${form.status}; only a sent or viewed form's recipients can be reminded.`);
    let recipients = await listRecipientsOfForm(trx, p, form.id);
    const targets = pickTargets(recipients, input.recipients);
    const soonest = targets.map(({ r, param }) => ({ param, wait: r.last_reminded_at ? Date.parse(r.last_reminded_at) + MANUAL_REMINDER_GAP_MS - Date.parse(now) : 0 })).filter((t) => t.wait > 0);
    if (soonest.length > 0) {
      const wait = Math.max(...soonest.map((t) => t.wait));
      const seconds = Math.ceil(wait / 1000);
      throw new AppError('reminder_too_soon', `A recipient can be reminded once an hour; try again in ${Math.ceil(seconds / 60)} minutes.`, soonest[0]!.param, { 'Retry-After': String(seconds) });
    }
    const account = await findAccount(trx, p.accountId);
    for (const { r } of targets) {
      const reminded = await sendReminder(trx, deps, p, form, r, { kind: 'manual', seq: null, accountName: account?.name ?? 'Formsign', accountLocale: account?.locale ?? null }, now);
      recipients = recipients.map((x) => (x.id === r.id ? reminded : x));
      await recordFormEvent(trx, p, 'form.reminded', formState(form, recipients), now);
    }
    return formJson(formState(form, recipients), fields, deps.links);
  };
}

function pickTargets(recipients: readonly RecipientRow[], ids: readonly string[] | undefined): Array<{ r: RecipientRow; param: string }> {
  if (ids === undefined) {
    const all = recipients.filter(remindable).map((r) => ({ r, param: 'recipients' }));
    if (all.length === 0) throw new AppError('form_not_sendable', 'Nobody is left to remind: every recipient messaged has signed.');
    return all;
  }
  return ids.map((id, i) => {
    const param = `recipients[${i}]`;
    const r = recipients.find((x) => x.id === id);
    if (!r) throw new AppError('parameter_invalid', `${param} is not a recipient of this form: '${id}'.`, param);
    if (!remindable(r)) {
      const why = r.role === 'cc' ? 'is a cc: nothing is asked of them' : r.status === 'waiting' ? 'is waiting for their turn and has not been messaged yet' : r.role === 'viewer' && r.status === 'viewed' ? 'has opened the document, which is all a viewer does' : `has ${r.status}`;
      throw new AppError('parameter_invalid', `${param} (${id}) ${why}; only a recipient who was messaged and has not signed can be reminded.`, param);
    }
    return { r, param };
  });
}
