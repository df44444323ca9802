import { expireForm, findFormsToExpire } from '../../db/repositories/form-expiry.js';
import { lockForm } from '../../db/repositories/forms.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { deleteFormDrafts } from '../../db/repositories/signing-drafts.js';
import type { Trx } from '../../db/handles.js';
import type { FormRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { JobHandler } from '../../outbox/job.js';
import type { PayloadOf } from '../../outbox/registry.js';
import type { DomainDeps } from '../context.js';
import { recordFormEvent } from './record-event.js';
import { formState, type FormState } from './present-form.js';

type SweepDeps = Pick<DomainDeps, 'db' | 'transact' | 'clock'>;

/**
 * Forms past `expires_at` that are still `sent` or `viewed` become `expired`, each with one
 * `form.expired` event written in the same transaction as its status. Idempotent and safe to run from
 * several workers at once: a form is expired (and its event written) only by the update that finds it
 * still expirable. Signing links stop working because the link lookup refuses expired forms.
 * Returns how many forms this run expired.
 */
/** Transactions the sweep runs at once. */
const SWEEP_CONCURRENCY = 4;

export async function expireForms(deps: SweepDeps, opts: { batchSize?: number } = {}): Promise<number> {
  const batchSize = opts.batchSize ?? 200;
  const now = isoNow(deps.clock);
  let expired = 0;
  for (;;) {
    const due = await findFormsToExpire(deps.db, now, batchSize);
    // One unit per form, so one form's failure does not hold back the others (group commit still
    // shares the commit on SQLite). A few at a time: on PostgreSQL each holds a pooled connection, and
    // the API shares the pool.
    const results: unknown[] = [];
    for (let i = 0; i < due.length; i += SWEEP_CONCURRENCY) {
      results.push(
        ...(await Promise.all(
          due.slice(i, i + SWEEP_CONCURRENCY).map(({ id, partition }) =>
            deps.transact((trx) => recordExpiry(trx, partition, id, now, () => expireForm(trx, partition, id, now))),
          ),
        )),
      );
    }
    expired += results.filter(Boolean).length;
    if (due.length < batchSize) return expired;
  }
}

/**
 * The one way a form's expiry is recorded, by the sweep and by an expiry asked for now
 * (expire-form-now.ts): the status written by `expire`, and with it one `form.expired` event carrying
 * the form as it now is, in the same transaction. Returns that state; undefined when `expire` expired nothing.
 *
 * The form's row is taken first, as by every other change of a form (lockForm): `expire`'s "someone
 * has not signed yet" condition then reads the recipients after a signature holding the row has
 * committed. Without it, on PostgreSQL (READ COMMITTED), the update waited for the last signature's
 * row lock but judged the recipients as they were when it started: both won, and the form ended
 * `expired` with every signature and its seal pending forever (issue 35 item 2).
 */
export async function recordExpiry(trx: Trx, partition: Partition, formId: string, now: string, expire: () => Promise<FormRow | undefined>): Promise<FormState | undefined> {
  if (!(await lockForm(trx, partition, formId))) return undefined;
  const form = await expire();
  if (!form) return undefined;
  // Nobody can sign any more: the recipients' drafts (issue 43) go with the expiry.
  await deleteFormDrafts(trx, partition, form.id);
  const state = formState(form, await listRecipientsOfForm(trx, partition, form.id));
  await recordFormEvent(trx, partition, 'form.expired', state, now);
  return state;
}

export function formsExpiryHandler(deps: SweepDeps): JobHandler<PayloadOf<'forms.expire'>> {
  return {
    async run() {
      await expireForms(deps);
    },
  };
}
