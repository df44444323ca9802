import type { Db, Trx } from '../handles.js';
import type { UserTotpRow } from '../tables.js';

// A user's TOTP authenticator (user_totp) and recovery codes; every query names the account.

export async function findUserTotp(db: Db | Trx, accountId: string, userId: string): Promise<UserTotpRow | undefined> {
  return db.selectFrom('user_totp').selectAll().where('account_id', '=', accountId).where('user_id', '=', userId).executeTakeFirst();
}

/** The users of the account with a confirmed authenticator (the members list's "2FA on"). */
export async function usersWithTotp(db: Db, accountId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('user_totp').select('user_id').where('account_id', '=', accountId).where('secret', 'is not', null).execute();
  return new Set(rows.map((r) => r.user_id));
}

export async function setPendingTotpSecret(trx: Trx, accountId: string, userId: string, secret: string, at: string): Promise<void> {
  await trx
    .insertInto('user_totp')
    .values({ user_id: userId, account_id: accountId, secret: null, pending_secret: secret, enabled_at: null, last_step: null, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ pending_secret: secret, updated_at: at }))
    .execute();
}

/** Makes the pending secret the user's, if it is still the one the code was checked against. */
export async function confirmTotpSecret(trx: Trx, accountId: string, userId: string, secret: string, step: number, at: string): Promise<boolean> {
  const r = await trx
    .updateTable('user_totp')
    .set({ secret, pending_secret: null, enabled_at: at, last_step: step, updated_at: at })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('pending_secret', '=', secret)
    .where('secret', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Records that a code of this time step was used; false when one of this step or a later one was
 * already (the update is conditional, so of two parallel uses of one code only one succeeds).
 */
export async function advanceTotpStep(trx: Trx, accountId: string, userId: string, step: number): Promise<boolean> {
  const r = await trx
    .updateTable('user_totp')
    .set({ last_step: step })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('secret', 'is not', null)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function clearTotp(trx: Trx, accountId: string, userId: string): Promise<void> {
  await trx.deleteFrom('user_totp').where('account_id', '=', accountId).where('user_id', '=', userId).execute();
  await trx.deleteFrom('recovery_codes').where('account_id', '=', accountId).where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(trx: Trx, accountId: string, userId: string, hashes: readonly string[], at: string): Promise<void> {
  await trx.deleteFrom('recovery_codes').where('account_id', '=', accountId).where('user_id', '=', userId).execute();
  await trx.insertInto('recovery_codes').values(hashes.map((code_hash) => ({ code_hash, account_id: accountId, user_id: userId, created_at: at, used_at: null }))).execute();
}

/** Spends one unused recovery code of the user; false when it is unknown or spent. */
export async function consumeRecoveryCode(trx: Trx, accountId: string, userId: string, hash: string, at: string): Promise<boolean> {
  const r = await trx.updateTable('recovery_codes').set({ used_at: at }).where('account_id', '=', accountId).where('user_id', '=', userId).where('code_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function countRecoveryCodesLeft(db: Db | Trx, accountId: string, userId: string): Promise<number> {
  const r = await db.selectFrom('recovery_codes').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirstOrThrow();
  return Number(r.n);
}
