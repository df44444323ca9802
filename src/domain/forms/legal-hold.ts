import { setFormHold } from '../../db/repositories/form-retention.js';
import { lockForm } from '../../db/repositories/forms.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import type { Json } from '../json.js';
import { checkReason } from '../lifecycle/lifecycle-rules.js';
import { commit, type PreparedWrite } from '../prepared-write.js';
import { formJson, formState, type FormView } from './present-form.js';
import { formFields, loadForm } from './read-forms.js';

type HoldDeps = Pick<DomainDeps, 'db' | 'clock' | 'templateCache' | 'links'>;

/**
 * `POST /forms/{id}/hold` (issue 40): a legal hold keeps the form from every purge — DELETE answers
 * 409 `form_on_hold` and the retention job passes it by — until it is released. The reason is
 * required; who placed it (the API key's id, or the dashboard user's address) and when are kept with
 * it. Placing it again replaces the reason. A deleted form has nothing left to hold.
 */
export async function prepareHoldForm(deps: HoldDeps, p: Partition, formId: string, input: { reason?: string | undefined; by: string }): Promise<PreparedWrite<Json<FormView>>> {
  const reason = checkReason(input.reason, 'reason');
  if (reason === null) throw new AppError('parameter_missing', 'A legal hold needs a `reason`: why the form must be kept.', 'reason');
  return prepareHoldChange(deps, p, formId, { reason, by: input.by });
}

export async function holdForm(deps: HoldDeps & Pick<DomainDeps, 'transact'>, p: Partition, formId: string, input: { reason?: string | undefined; by: string }): Promise<Json<FormView>> {
  return commit(deps, prepareHoldForm(deps, p, formId, input));
}

/** `DELETE /forms/{id}/hold`: the hold is released (a form without one answers as it is). */
export async function releaseHold(deps: HoldDeps & Pick<DomainDeps, 'transact'>, p: Partition, formId: string): Promise<Json<FormView>> {
  return commit(deps, prepareHoldChange(deps, p, formId, null));
}

async function prepareHoldChange(deps: HoldDeps, p: Partition, formId: string, hold: { reason: string; by: string } | null): Promise<PreparedWrite<Json<FormView>>> {
  const fields = await formFields(deps, p, await loadForm(deps, p, formId));
  const now = isoNow(deps.clock);
  return async (trx) => {
    const form = await lockForm(trx, p, formId, now);
    if (!form) throw notFound('form', formId);
    if (form.status === 'deleted') throw new AppError('resource_not_found', `Form '${formId}' was deleted: there is nothing left to hold.`);
    const patch = hold ? { reason: hold.reason, by: hold.by, at: now } : { reason: null, by: null, at: null };
    await setFormHold(trx, p, formId, patch);
    const recipients = await listRecipientsOfForm(trx, p, formId);
    return formJson(formState({ ...form, hold_reason: patch.reason, hold_by: patch.by, hold_at: patch.at }, recipients), fields, deps.links);
  };
}
