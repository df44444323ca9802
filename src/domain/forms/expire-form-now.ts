import { expireFormNow, findFormPartition } from '../../db/repositories/form-expiry.js';
import { findForm } from '../../db/repositories/forms.js';
import { isoNow } from '../../lib/clock.js';
import type { Json } from '../json.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { commit, type PreparedWrite } from '../prepared-write.js';
import { recordExpiry } from './expire-forms.js';
import { formJson, type FormView } from './present-form.js';
import { formFields, loadForm } from './read-forms.js';

// Expiring a form at once, so that integrators can see `form.expired` without waiting a day
// (`expires_in_days` is at least 1): POST /api/v1/forms/{id}/expire with a test key, and the operator's
// `formsign forms expire ID` for any form. The same record as the scheduled sweep (expire-forms.ts).

type ExpireDeps = Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'links'>;

/** Expires the form now and returns it; 409 when it is not waiting for signatures. */
export async function expireFormAtOnce(deps: ExpireDeps, p: Partition, formId: string): Promise<Json<FormView>> {
  return commit(deps, prepareExpireForm(deps, p, formId));
}

/** expireFormAtOnce's reads; the write it prepares expires the form (or says why it cannot) and answers it. */
export async function prepareExpireForm(deps: Omit<ExpireDeps, 'transact'>, p: Partition, formId: string): Promise<PreparedWrite<Json<FormView>>> {
  // The field definitions never change: read before the transaction, so the answer is built inside it.
  const fields = await formFields(deps, p, await loadForm(deps, p, formId));
  const now = isoNow(deps.clock);
  return async (trx) => {
    const expired = await recordExpiry(trx, p, formId, now, () => expireFormNow(trx, p, formId, now));
    if (expired) return formJson(expired, fields, deps.links);
    const form = await findForm(trx, p, formId);
    if (!form) throw notFound('form', formId);
    if (form.status === 'expired') throw new AppError('form_expired', `Form ${form.id} has already expired.`);
    const why = form.status === 'draft' ? 'it has not been sent yet' : form.status === 'sent' || form.status === 'viewed' ? 'every recipient has signed and its seal is being made' : `it is ${form.status}`;
    throw new AppError('form_not_sendable', `Form ${form.id} cannot expire: ${why}. Only a form that is sent or viewed and still waits for a signature can expire.`);
  };
}

/** The operator's command: any mode, the form found by its id alone. */
export async function expireFormById(deps: ExpireDeps, formId: string): Promise<Json<FormView>> {
  const p = await findFormPartition(deps.db, formId);
  if (!p) throw notFound('form', formId);
  return expireFormAtOnce(deps, p, formId);
}
