import type { Db, Trx } from '../handles.js';
import type { AccountRow, ApiKeyRow, ApiKeysTable } from '../tables.js';

export async function insertApiKey(trx: Trx, row: ApiKeysTable): Promise<void> {
  await trx.insertInto('api_keys').values(row).execute();
}

/**
 * Authentication is how a request learns its partition, so this lookup is by key hash alone.
 * The account's plan comes along: auth needs both and one query is cheaper than two.
 */
export async function findKeyWithAccountByHash(
  db: Db,
  keyHash: string,
): Promise<{ key: ApiKeyRow; plan: AccountRow['plan'] } | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .selectAll('api_keys')
    .select('accounts.plan as plan')
    .where('api_keys.key_hash', '=', keyHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { plan, ...key } = row;
  return { key, plan };
}

export async function listApiKeys(db: Db, accountId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export async function findApiKey(db: Db, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function revokeApiKey(trx: Trx, id: string, at: string): Promise<boolean> {
  const r = await trx.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Best effort and off the request's critical path: one statement, its own transaction; a lost touch
 * only makes `last_used_at` a minute older. Not a `Trx`, so authentication never queues behind writes.
 */
export async function touchApiKey(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}
