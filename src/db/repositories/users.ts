import type { Db, Trx } from '../handles.js';
import type { Role } from '../../lib/member-roles.js';
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

export async function findUser(db: Db | Trx, accountId: string, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export async function setUserPassword(trx: Trx, accountId: string, id: string, passwordHash: string, at: string): Promise<boolean> {
  const r = await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: at }).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** An account's members, oldest first (the first is usually the one who signed up). */
export async function listAccountUsers(db: Db, accountId: string): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
}

/**
 * Takes the account's membership lock for the rest of the transaction: a no-op write of the account's
 * row, which PostgreSQL row-locks until commit (the same on both dialects; SQLite's write transaction
 * serialises anyway). Changes that must leave an owner take it before counting owners, so two owners
 * demoting or removing each other at once run one after the other.
 */
export async function lockAccountMembers(trx: Trx, accountId: string): Promise<void> {
  await trx.updateTable('accounts').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', accountId).execute();
}

export async function countOwners(trx: Db | Trx, accountId: string): Promise<number> {
  const row = await trx.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).where('role', '=', 'owner').executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setUserRole(trx: Trx, accountId: string, id: string, role: Role, at: string): Promise<boolean> {
  const r = await trx.updateTable('users').set({ role, updated_at: at }).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function touchUserSignIn(trx: Trx, accountId: string, id: string, at: string): Promise<void> {
  await trx.updateTable('users').set({ last_sign_in_at: at }).where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** Deletes a member with their sessions and one-time links (the caller has checked who may). */
export async function deleteUser(trx: Trx, accountId: string, id: string): Promise<boolean> {
  await trx.deleteFrom('sessions').where('account_id', '=', accountId).where('user_id', '=', id).execute();
  await trx.deleteFrom('login_links').where('user_id', '=', id).execute();
  const r = await trx.deleteFrom('users').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
