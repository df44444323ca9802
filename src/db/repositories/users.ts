import type { Db, Trx } from '../handles.js';
import type { UserRow, UsersTable } from '../tables.js';

// Users are found by e-mail at sign-in (that lookup establishes the account, like an API key's hash);
// everything else names the account the user belongs to.

export async function insertUser(trx: Trx, row: UsersTable): Promise<void> {
  await trx.insertInto('users').values(row).execute();
}

export async function findUserByEmail(db: Db | Trx, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** The user a one-time link names (the link's lookup establishes the account). */
export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUser(db: Db, accountId: string, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export async function setUserPassword(trx: Trx, accountId: string, id: string, passwordHash: string, at: string): Promise<boolean> {
  const r = await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: at }).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
