import { sql } from 'kysely';
import type { Db, Trx } from '../handles.js';
import type { LoginLinkPurpose, LoginLinksTable, SessionRow, SessionsTable, UserRow } from '../tables.js';

// Sessions and one-time links are looked up by the SHA-256 of their token: that lookup is how a
// dashboard request learns its account, as an API key's hash does for the API.

export async function insertSession(trx: Trx, row: SessionsTable): Promise<void> {
  await trx.insertInto('sessions').values(row).execute();
}

/** A live session (not revoked, not expired at `now`) with its user. */
export async function findLiveSession(db: Db, tokenHash: string, now: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('sessions')
    .select(['users.email as user_email', 'users.password_hash as user_password_hash', 'users.role as user_role', 'users.last_sign_in_at as user_last_sign_in_at', 'users.created_at as user_created_at', 'users.updated_at as user_updated_at'])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const { user_email, user_password_hash, user_role, user_last_sign_in_at, user_created_at, user_updated_at, ...session } = row;
  return {
    session,
    user: { id: session.user_id, account_id: session.account_id, email: user_email, password_hash: user_password_hash, role: user_role, last_sign_in_at: user_last_sign_in_at ?? null, created_at: user_created_at, updated_at: user_updated_at },
  };
}

/** A user's ended sessions (expired or revoked), dropped when the user signs in again. */
export async function deleteEndedSessions(trx: Trx, accountId: string, userId: string, now: string): Promise<void> {
  await trx.deleteFrom('sessions').where('account_id', '=', accountId).where('user_id', '=', userId).where((eb) => eb.or([eb('expires_at', '<=', now), eb('revoked_at', 'is not', null)])).execute();
}

export async function revokeSession(trx: Trx, tokenHash: string, at: string): Promise<boolean> {
  const r = await trx.updateTable('sessions').set({ revoked_at: at }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Ends every session of a user (password change, operator action). */
export async function revokeUserSessions(trx: Trx, accountId: string, userId: string, at: string): Promise<number> {
  const r = await trx.updateTable('sessions').set({ revoked_at: at }).where('account_id', '=', accountId).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function insertLoginLink(trx: Trx, row: LoginLinksTable): Promise<void> {
  // The user's spent and expired links go as a new one is made.
  await trx.deleteFrom('login_links').where('user_id', '=', row.user_id).where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', row.created_at)])).execute();
  await trx.insertInto('login_links').values(row).execute();
}

/**
 * Marks an unused, unexpired link used and returns its user id; at most one caller ever gets it (the
 * update is conditional), so a link signs in once.
 */
export async function consumeLoginLink(trx: Trx, tokenHash: string, now: string, purpose: LoginLinkPurpose): Promise<string | undefined> {
  const link = await trx.selectFrom('login_links').select(['user_id']).where('token_hash', '=', tokenHash).where('purpose', '=', purpose).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  if (!link) return undefined;
  const r = await trx.updateTable('login_links').set({ used_at: now }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? link.user_id : undefined;
}

/**
 * Reserves one attempt for the subject and returns the window's count including it: one upsert that
 * increments and reads back, so parallel attempts (on any instance) each see a different count and at
 * most `limit` of them can see one at or under the limit. A window that started at or before
 * `windowStartAfter` starts over at 1.
 */
export async function reserveAttempt(trx: Trx, subject: string, now: string, windowStartAfter: string): Promise<{ failures: number; window_start: string }> {
  const stale = sql<boolean>`login_failures.window_start <= ${windowStartAfter}`;
  const row = await trx
    .insertInto('login_failures')
    .values({ subject, failures: 1, window_start: now })
    .onConflict((oc) => oc.column('subject').doUpdateSet({
      failures: sql<number>`case when ${stale} then 1 else login_failures.failures + 1 end`,
      window_start: sql<string>`case when ${stale} then ${now} else login_failures.window_start end`,
    }))
    .returning(['failures', 'window_start'])
    .executeTakeFirstOrThrow();
  return { failures: Number(row.failures), window_start: row.window_start };
}

/** Gives back one reserved attempt, if its window is still the one it was reserved in. */
export async function releaseAttempt(trx: Trx, subject: string, windowStart: string): Promise<void> {
  await trx.updateTable('login_failures').set({ failures: sql<number>`failures - 1` }).where('subject', '=', subject).where('window_start', '=', windowStart).where('failures', '>', 0).execute();
}

/** Windows that ended count for nothing: dropped, so the table holds only current windows. */
export async function deleteEndedWindows(trx: Trx, windowStartAfter: string): Promise<void> {
  await trx.deleteFrom('login_failures').where('window_start', '<=', windowStartAfter).execute();
}

export async function clearLoginFailures(trx: Trx, subject: string): Promise<void> {
  await trx.deleteFrom('login_failures').where('subject', '=', subject).execute();
}
