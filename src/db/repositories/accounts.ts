import type { Db, Trx } from '../handles.js';
import type { AccountRow, AccountsTable } from '../tables.js';

// Accounts are the root of every partition, so these operator-level queries take the account id itself.

export async function insertAccount(trx: Trx, row: AccountsTable): Promise<void> {
  await trx.insertInto('accounts').values(row).execute();
}

export async function findAccount(db: Db, id: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateAccount(
  trx: Trx,
  id: string,
  patch: Partial<Pick<AccountsTable, 'plan' | 'monthly_limit' | 'per_minute_limit' | 'unmetered' | 'locale' | 'updated_at' | 'name' | 'retention_days'>>,
): Promise<boolean> {
  const r = await trx.updateTable('accounts').set(patch).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function countAccounts(db: Db): Promise<number> {
  const r = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}
