import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { AccountNotifyRow } from '../tables.js';

// Who is told what (0014): an account's notice address and opt-ins, and a form's completed-copy switch.

/** An account's notice settings; undefined until set (no notices, no Reply-To). Operator-level: by account id. */
export async function findAccountNotify(db: Db, accountId: string): Promise<AccountNotifyRow | undefined> {
  return db.selectFrom('account_notify').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** Writes the whole setting (insert or replace), atomic on both dialects. */
export async function upsertAccountNotify(trx: Trx, row: AccountNotifyRow): Promise<void> {
  await trx
    .insertInto('account_notify')
    .values(row)
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ notify_email: row.notify_email, notify_viewed: row.notify_viewed, updated_at: row.updated_at }))
    .execute();
}

/** A send's `notify.completed_copy`: whether the recipients get the sealed copy (1) or not (0). */
export async function setFormCompletedCopy(trx: Trx, p: Partition, formId: string, completedCopy: boolean): Promise<void> {
  await trx
    .updateTable('forms')
    .set({ completed_copy: completedCopy ? 1 : 0 })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', formId)
    .execute();
}
