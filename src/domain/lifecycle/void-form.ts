import { loadBrandLook } from '../branding/brand-look.js';
import { findAccount } from '../../db/repositories/accounts.js';
import { lockForm, updateForm } from '../../db/repositories/forms.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { deleteFormDrafts } from '../../db/repositories/signing-drafts.js';
import type { FormRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { pickLocale } from '../../lib/i18n/index.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { formJson, formState, type FormView } from '../forms/present-form.js';
import { formFields, loadForm } from '../forms/read-forms.js';
import { recordFormEvent } from '../forms/record-event.js';
import type { Json } from '../json.js';
import { commit, type PreparedWrite } from '../prepared-write.js';
import { composeVoidNotice } from '../sending/compose-message.js';
import { ACTIVE, checkReason } from './lifecycle-rules.js';
import { addressOf, queueMessage } from './message-recipient.js';

/**
 * `POST /forms/{id}/void`: the sender withdraws a sent or viewed form. In ONE unit: the form becomes
 * `voided` (final: every link answers 410, scheduled reminders find it no longer out and send
 * nothing), each recipient who was messaged (not those still waiting for their turn) gets a short
 * notice on their channel, and `form.voided` is recorded.
 */
export async function voidForm(
  deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'links' | 'baseUrl'>,
  p: Partition,
  formId: string,
  input: { reason?: string | undefined },
): Promise<Json<FormView>> {
  return commit(deps, prepareVoidForm(deps, p, formId, input));
}

/** voidForm's checks of its input and reads; the write it prepares is the whole void, returning the form's JSON. */
export async function prepareVoidForm(
  deps: Pick<DomainDeps, 'db' | 'clock' | 'templateCache' | 'links' | 'baseUrl'>,
  p: Partition,
  formId: string,
  input: { reason?: string | undefined },
): Promise<PreparedWrite<Json<FormView>>> {
  const reason = checkReason(input.reason, 'reason');
  // The field definitions never change: read before the transaction, so the answer is built inside it.
  const fields = await formFields(deps, p, await loadForm(deps, p, formId));
  const now = isoNow(deps.clock);
  return async (trx) => {
    const form = await lockForm(trx, p, formId, now);
    if (!form) throw notFound('form', formId);
    const expired = form.expires_at !== null && form.expires_at <= now;
    if (!ACTIVE.has(form.status) || expired) {
      throw new AppError('form_not_voidable', `This form is ${expired && ACTIVE.has(form.status) ? 'expired' : form.status}; only a sent or viewed form can be voided.`);
    }
    // Everyone has signed and the seal is being made (or failed and waits for a reseal): the form is
    // complete, so there is nothing left to withdraw, as for an expiry.
    if (form.sealing_status !== null) {
      throw new AppError('form_not_voidable', 'Every recipient has signed this form and its seal is being made; a signed form cannot be voided.');
    }
    const voided: FormRow = { ...form, status: 'voided', voided_at: now, void_reason: reason, updated_at: now };
    await updateForm(trx, p, form.id, { status: 'voided', voided_at: now, void_reason: reason, updated_at: now });
    await deleteFormDrafts(trx, p, form.id);
    const recipients = await listRecipientsOfForm(trx, p, form.id);
    const account = await findAccount(trx, p.accountId);
    const brand = await loadBrandLook(trx, deps.baseUrl, p.accountId, account?.name ?? 'Formsign');
    for (const r of recipients) {
      if (r.status === 'waiting') continue;
      const notice = composeVoidNotice({
        brand, channel: r.channel, to: addressOf(r), recipientName: r.name, formName: form.name ?? 'a document', accountName: account?.name ?? 'Formsign', reason, locale: pickLocale([r.locale, account?.locale]) });
      await queueMessage(trx, p, form.id, r, 'void_notice', notice, now);
    }
    const state = formState(voided, recipients);
    await recordFormEvent(trx, p, 'form.voided', state, now);
    return formJson(state, fields, deps.links);
  };
}
