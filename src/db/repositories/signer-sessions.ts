import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { SignerSessionRow } from '../tables.js';

// Signer sessions (migration 0030): a browser on one signing link, found by the SHA-256 of its cookie.

export function findSignerSession(db: Db, idHash: string): Promise<SignerSessionRow | undefined> {
  return db.selectFrom('signer_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
}

export async function insertSignerSession(trx: Trx, row: SignerSessionRow): Promise<void> {
  await trx.insertInto('signer_sessions').values(row).execute();
}

export async function touchSignerSession(trx: Trx, idHash: string, now: string): Promise<void> {
  await trx.updateTable('signer_sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
}

export async function markSignerSessionVerified(trx: Trx, p: Partition, idHash: string, purpose: 'open' | 'sign', now: string): Promise<void> {
  const set = purpose === 'open' ? { verified_at: now, last_seen_at: now } : { sign_verified_at: now, last_seen_at: now };
  await trx.updateTable('signer_sessions').set(set).where('id_hash', '=', idHash).where('account_id', '=', p.accountId).where('mode', '=', p.mode).execute();
}

/** Ends every session of a recipient (its link was replaced). */
export async function endSignerSessions(trx: Trx, p: Partition, recipientId: string): Promise<void> {
  await trx.deleteFrom('signer_sessions').where('recipient_id', '=', recipientId).where('account_id', '=', p.accountId).where('mode', '=', p.mode).execute();
}
