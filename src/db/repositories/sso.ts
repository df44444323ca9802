import type { Db, Trx } from '../handles.js';
import type { AccountSignInTable, SsoDomainsTable, SsoFlowRow, SsoFlowsTable } from '../tables.js';

// Claimed e-mail domains are looked up by the domain at sign-in (that lookup establishes the account,
// as an e-mail address does for a password); the operator's commands name the account.

export async function findSsoDomain(db: Db | Trx, domain: string): Promise<SsoDomainsTable | undefined> {
  return db.selectFrom('sso_domains').selectAll().where('domain', '=', domain).executeTakeFirst();
}

export async function listSsoDomains(db: Db | Trx, accountId: string): Promise<SsoDomainsTable[]> {
  return db.selectFrom('sso_domains').selectAll().where('account_id', '=', accountId).orderBy('domain').execute();
}

/** Claims the domain for the account; false when another account holds it (the primary key decides). */
export async function insertSsoDomain(trx: Trx, row: SsoDomainsTable): Promise<boolean> {
  const r = await trx.insertInto('sso_domains').values(row).onConflict((oc) => oc.column('domain').doNothing()).returning('domain').executeTakeFirst();
  return r !== undefined;
}

export async function deleteSsoDomain(trx: Trx, accountId: string, domain: string): Promise<boolean> {
  const r = await trx.deleteFrom('sso_domains').where('account_id', '=', accountId).where('domain', '=', domain).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Stores a started sign-in; the ended ones (spent or expired) go as new ones come. */
export async function insertSsoFlow(trx: Trx, row: SsoFlowsTable): Promise<void> {
  await trx.deleteFrom('sso_flows').where((eb) => eb.or([eb('expires_at', '<=', row.created_at), eb('used_at', 'is not', null)])).execute();
  await trx.insertInto('sso_flows').values(row).execute();
}

/** Spends an unspent, unexpired flow and returns it; the update is conditional, so only one caller gets it. */
export async function consumeSsoFlow(trx: Trx, idHash: string, now: string): Promise<SsoFlowRow | undefined> {
  const flow = await trx.selectFrom('sso_flows').selectAll().where('id_hash', '=', idHash).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  if (!flow) return undefined;
  const r = await trx.updateTable('sso_flows').set({ used_at: now }).where('id_hash', '=', idHash).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? flow : undefined;
}

/** The account's sign-in policy; no row: nothing required. */
export async function findSignInPolicy(db: Db | Trx, accountId: string): Promise<{ sso_required: boolean; require_2fa: boolean }> {
  const row = await db.selectFrom('account_sign_in').select(['sso_required', 'require_2fa']).where('account_id', '=', accountId).executeTakeFirst();
  return { sso_required: Boolean(row?.sso_required), require_2fa: Boolean(row?.require_2fa) };
}

export async function upsertSignInPolicy(trx: Trx, row: AccountSignInTable): Promise<void> {
  await trx
    .insertInto('account_sign_in')
    .values(row)
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ sso_required: row.sso_required, require_2fa: row.require_2fa, updated_at: row.updated_at }))
    .execute();
}
