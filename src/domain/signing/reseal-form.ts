import { findFormPartition, setFormSealing } from '../../db/repositories/form-sealing.js';
import { lockForm } from '../../db/repositories/forms.js';
import { isoNow } from '../../lib/clock.js';
import type { Json } from '../json.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import { formSeal } from '../../outbox/jobs/form-seal.job.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import type { FormView } from '../forms/present-form.js';
import { getForm } from '../forms/read-forms.js';

/**
 * `POST /forms/{id}/reseal` and `formsign forms reseal ID` (issue 25): a form whose seal failed for
 * good (every TSA down through the whole retry schedule) is sealed again — `sealing` back to
 * `pending` and a new seal job with its full schedule, in one transaction. Anything else is refused:
 * a pending seal is still being retried, a sealed one is done, and a form not yet fully signed has
 * nothing to seal. The form becomes `signed` with `form.signed` only when that seal is stored.
 */
export async function resealForm(deps: Parameters<typeof getForm>[0] & Pick<DomainDeps, 'transact' | 'clock'>, p: Partition, formId: string): Promise<Json<FormView>> {
  const now = isoNow(deps.clock);
  await deps.transact(async (trx) => {
    const form = await lockForm(trx, p, formId, now);
    if (!form) throw notFound('form', formId);
    if (form.sealing_status !== 'failed') {
      const state = form.sealing_status ?? (form.status === 'signed' ? 'sealed' : 'not started: not every recipient has signed');
      throw new AppError('form_not_resealable', `Only a form whose sealing failed can be resealed; this form's sealing is ${state}.`);
    }
    await setFormSealing(trx, p, formId, { sealing_status: 'pending', sealing_attempts: 0, sealing_error: null, sealing_next_at: null });
    await enqueue(trx, p, formSeal, { form_id: formId }, { now });
  });
  return getForm(deps, p, formId);
}

/** The operator's reseal (`formsign forms reseal ID`): the form found by its id in whichever partition holds it. */
export async function resealFormById(deps: Parameters<typeof resealForm>[0], formId: string): Promise<Json<FormView>> {
  const p = await findFormPartition(deps.db, formId);
  if (!p) throw notFound('form', formId);
  return resealForm(deps, p, formId);
}
