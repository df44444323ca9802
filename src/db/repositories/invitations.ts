import type { Db, Trx } from '../handles.js';
import type { InvitationRow, InvitationsTable } from '../tables.js';

// Invitations are found by their token's SHA-256 when accepted (that lookup establishes the account,
// like a sign-in link's); everything else names the account.

export async function insertInvitation(trx: Trx, row: InvitationsTable): Promise<void> {
  await trx.insertInto('invitations').values(row).execute();
}

/** Open invitations of an account (not accepted, withdrawn or expired at `now`), newest first. */
export async function listOpenInvitations(db: Db, accountId: string, now: string): Promise<InvitationRow[]> {
  return db.selectFrom('invitations').selectAll().where('account_id', '=', accountId).where('accepted_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', now).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** An open invitation by token hash, for the page that accepts it. */
export async function findOpenInvitationByToken(db: Db | Trx, tokenHash: string, now: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).where('accepted_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
}

/** Marks an open invitation accepted; at most one caller ever succeeds (the update is conditional). */
export async function markInvitationAccepted(trx: Trx, id: string, now: string): Promise<boolean> {
  const r = await trx.updateTable('invitations').set({ accepted_at: now }).where('id', '=', id).where('accepted_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function revokeInvitation(trx: Trx, accountId: string, id: string, now: string): Promise<InvitationRow | undefined> {
  const r = await trx.updateTable('invitations').set({ revoked_at: now }).where('account_id', '=', accountId).where('id', '=', id).where('accepted_at', 'is', null).where('revoked_at', 'is', null).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return undefined;
  return trx.selectFrom('invitations').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

/** Withdraws an account's open invitations for an address (a new invitation replaces them). */
export async function revokeInvitationsFor(trx: Trx, accountId: string, email: string, now: string): Promise<void> {
  await trx.updateTable('invitations').set({ revoked_at: now }).where('account_id', '=', accountId).where('email', '=', email).where('accepted_at', 'is', null).where('revoked_at', 'is', null).execute();
}
