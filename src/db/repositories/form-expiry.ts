import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { Database, FormRow } from '../tables.js';
import type { ExpressionBuilder } from 'kysely';

// The expiry sweep's queries. Finding due forms reads across partitions by design (the sweep serves
// every account); expiring one names its partition like every write.

const EXPIRABLE = ['sent', 'viewed'] as const;

/**
 * A form every recipient has signed waits only for its seal (retried for about a day): it is not
 * expired under it, or it would end `expired` with everyone's signature, or flip to `signed` later.
 */
function awaitsASignature(eb: ExpressionBuilder<Database, 'forms'>) {
  const recipients = () =>
    eb.selectFrom('recipients as r').select('r.id').whereRef('r.form_id', '=', 'forms.id').whereRef('r.account_id', '=', 'forms.account_id').whereRef('r.mode', '=', 'forms.mode');
  return eb.or([eb.not(eb.exists(recipients())), eb.exists(recipients().where('r.status', '<>', 'signed'))]);
}

/** Forms past their expiry still waiting for signatures, oldest expiry first (index forms_expiring_idx). */
export async function findFormsToExpire(db: Db, now: string, limit: number): Promise<Array<{ id: string; partition: Partition }>> {
  const rows = await db
    .selectFrom('forms')
    .select(['id', 'account_id', 'mode'])
    .where('status', 'in', EXPIRABLE)
    .where('expires_at', '<=', now)
    .where(awaitsASignature)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, partition: { accountId: r.account_id, mode: r.mode } }));
}

/**
 * Expires one form if it is still expirable, and returns it as it now is; undefined when another
 * sweeper (or a signature) got there first. The status condition in the UPDATE is what makes two
 * concurrent sweepers safe: PostgreSQL re-checks it after waiting on the other's row lock.
 */
export async function expireForm(trx: Trx, p: Partition, id: string, now: string): Promise<FormRow | undefined> {
  return trx
    .updateTable('forms')
    .set({ status: 'expired', updated_at: now })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', id)
    .where('status', 'in', EXPIRABLE)
    .where('expires_at', '<=', now)
    .where(awaitsASignature)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Expires one form now, whatever its `expires_at` (the test-mode expire operation and `formsign forms
 * expire`): the same conditions as the sweep's update but the time, and `expires_at` becomes now so
 * the form reads as it would after its scheduled expiry. Undefined when it is not expirable.
 */
export async function expireFormNow(trx: Trx, p: Partition, id: string, now: string): Promise<FormRow | undefined> {
  return trx
    .updateTable('forms')
    .set({ status: 'expired', expires_at: now, updated_at: now })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', id)
    .where('status', 'in', EXPIRABLE)
    .where(awaitsASignature)
    .returningAll()
    .executeTakeFirst();
}

/** Which partition a form is in, for the operator's commands (which name a form by its id alone). */
export async function findFormPartition(db: Db, id: string): Promise<Partition | undefined> {
  const row = await db.selectFrom('forms').select(['account_id', 'mode']).where('id', '=', id).executeTakeFirst();
  return row ? { accountId: row.account_id, mode: row.mode } : undefined;
}
