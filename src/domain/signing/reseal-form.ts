import { findFormPartition, setFormSealing } from '../../db/repositories/form-sealing.js';
import { lockForm } from '../../db/repositories/forms.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { isComplete } from '../sending/recipient-roles.js';
import type { FormRow, RecipientRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import type { Json } from '../json.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import { formSeal } from '../../outbox/jobs/form-seal.job.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { formJson, formState, type FormView } from '../forms/present-form.js';
import { formFields, loadForm } from '../forms/read-forms.js';
import { commit, type PreparedWrite } from '../prepared-write.js';

/**
 * A pending seal whose due attempt is this far overdue is stuck, not being retried: the seal job's
 * backoff never waits more than an hour (form-seal.job.ts), so a worker that runs it records the
 * outcome well within this. A reseal then starts it again; the seal is safe to run twice (a second
 * one finds the form signed and records nothing).
 */
export const RESEAL_STALE_MS = 2 * 3600 * 1000;

type ResealDeps = Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'links'>;

/**
 * `POST /forms/{id}/reseal` and `formsign forms reseal ID` (issue 25): a form whose every recipient
 * signed and whose seal failed for good (every TSA down through the whole retry schedule), or whose
 * pending seal is stuck (`RESEAL_STALE_MS`), is sealed again — `sealing` back to `pending` and a new
 * seal job with its full schedule, in one transaction. Anything else answers 409 `form_not_resealable`:
 * a draft, declined, voided or expired form has nothing to seal and never will (the seal job skips
 * it, so a reseal would leave `sealing` pending for ever); a signed one is sealed already (issue 25
 * asks for no re-sealing of a sealed document); a pending seal that is on schedule is still being
 * retried.
 */
export async function resealForm(deps: ResealDeps, p: Partition, formId: string): Promise<Json<FormView>> {
  return commit(deps, prepareResealForm(deps, p, formId));
}

/** resealForm's reads; the write it prepares checks the form under its lock, and answers the form as it then is. */
export async function prepareResealForm(deps: Omit<ResealDeps, 'transact'>, p: Partition, formId: string): Promise<PreparedWrite<Json<FormView>>> {
  // The field definitions never change: read before the transaction, so the answer is built inside it.
  const fields = await formFields(deps, p, await loadForm(deps, p, formId));
  const now = isoNow(deps.clock);
  return async (trx) => {
    const form = await lockForm(trx, p, formId, now);
    if (!form) throw notFound('form', formId);
    const recipients = await listRecipientsOfForm(trx, p, formId);
    const refusal = whyNotResealable(form, recipients, now);
    if (refusal) throw new AppError('form_not_resealable', `Only a form whose sealing failed can be resealed (or whose pending seal is stuck, ${RESEAL_STALE_MS / 3_600_000} hours overdue); this form cannot: ${refusal}.`);
    const sealing = { sealing_status: 'pending', sealing_attempts: 0, sealing_error: null, sealing_next_at: null } as const;
    await setFormSealing(trx, p, formId, sealing);
    await enqueue(trx, p, formSeal, { form_id: formId }, { now });
    return formJson(formState({ ...form, ...sealing }, recipients), fields, deps.links);
  };
}

/** Why the form cannot be resealed now, in words for the error's message; undefined when it can. */
export function whyNotResealable(form: FormRow, recipients: readonly RecipientRow[], now: string): string | undefined {
  if (form.status === 'signed') return 'it is signed and its sealed document is stored';
  if (form.status !== 'sent' && form.status !== 'viewed') return `it is ${form.status}, and only a form every recipient signed is sealed`;
  if (!isComplete(recipients)) return 'not every signer and approver is done with it yet';
  if (form.sealing_status === 'failed') return undefined;
  if (form.sealing_status === 'pending') {
    // Its next attempt, or (none failed yet) its first, which the last signature enqueued.
    const due = form.sealing_next_at ?? lastSignedAt(recipients);
    if (due !== undefined && Date.parse(due) + RESEAL_STALE_MS <= Date.parse(now)) return undefined;
    return `its seal is pending and still being retried (next attempt ${form.sealing_next_at ?? 'now'})`;
  }
  return `its sealing is ${form.sealing_status ?? 'not started'}`;
}

function lastSignedAt(recipients: readonly RecipientRow[]): string | undefined {
  const times = recipients.flatMap((r) => { const at = r.signed_at ?? r.approved_at; return at ? [at] : []; }).sort();
  return times[times.length - 1];
}

/** The operator's reseal (`formsign forms reseal ID`): the form found by its id in whichever partition holds it. */
export async function resealFormById(deps: ResealDeps, formId: string): Promise<Json<FormView>> {
  const p = await findFormPartition(deps.db, formId);
  if (!p) throw notFound('form', formId);
  return resealForm(deps, p, formId);
}
