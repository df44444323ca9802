import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { RecipientRow, RetiredLinkRow } from '../tables.js';

// A recipient's link replaced (migration 0090, issue 38 item 5): the old token's hash kept in
// `retired_links` with who the recipient was, and the row moved to its next link generation with its
// new name and addresses, conditional on the generation read (of two concurrent corrections exactly
// one moves the row) and on a status that has not signed, approved or declined.

/** A retired link by its token's hash (the lookup is by the hash alone, as a live link's is). */
export function findRetiredLink(db: Db, tokenHash: string): Promise<RetiredLinkRow | undefined> {
  return db.selectFrom('retired_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** A form's replaced links, oldest first (the audit trail, the dev outbox, the dashboard). */
export function listRetiredLinksOfForm(db: Db, p: Partition, formId: string): Promise<RetiredLinkRow[]> {
  return db.selectFrom('retired_links').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).orderBy('retired_at').orderBy('generation').execute();
}

/** When each of these recipients' links were replaced (the dev outbox names the link an invitation carried). */
export async function retiredLinksOfRecipients(db: Db, p: Partition, recipientIds: readonly string[]): Promise<Array<Pick<RetiredLinkRow, 'recipient_id' | 'retired_at'>>> {
  if (recipientIds.length === 0) return [];
  return db.selectFrom('retired_links').select(['recipient_id', 'retired_at']).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('recipient_id', 'in', recipientIds).execute();
}

export async function insertRetiredLink(trx: Trx, p: Partition, row: Omit<RetiredLinkRow, 'account_id' | 'mode'>): Promise<void> {
  await trx.insertInto('retired_links').values({ ...row, account_id: p.accountId, mode: p.mode }).execute();
}

/** What a correction sets on the recipient row (its new person and link). */
export type RecipientCorrection = Pick<RecipientRow, 'name' | 'email' | 'phone' | 'channel' | 'address_key' | 'token_hash'> & { link_generation: number };

/**
 * Moves the recipient to its new link and details, from the generation and status read, while it has
 * not signed, approved or declined. A `viewed` recipient is `sent` again (the new person has not opened it) and
 * the first view is cleared for them. Undefined when another request moved the row first.
 */
export function replaceRecipientLink(trx: Trx, p: Partition, r: Pick<RecipientRow, 'id' | 'status' | 'link_generation'>, c: RecipientCorrection, now: string): Promise<RecipientRow | undefined> {
  return trx
    .updateTable('recipients')
    .set({ ...c, status: r.status === 'viewed' ? 'sent' : r.status, viewed_at: null, viewed_ip: null, viewed_user_agent: null, delivery_status: 'queued', delivery_error: null, updated_at: now })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', r.id)
    .where('link_generation', '=', r.link_generation)
    .where('status', '=', r.status)
    // Never a recipient who gave their answer, whatever status the caller read.
    .where('status', 'not in', ['signed', 'approved', 'declined'])
    .returningAll()
    .executeTakeFirst();
}

/**
 * Counts one code request from `ip` on the partition's links in the window starting `windowStart`
 * and returns the count after it. One upsert: concurrent servers each add exactly one. Older windows
 * of the same address are deleted on the way (a window is only read while current).
 */
export async function countCodeRequest(trx: Trx, p: Partition, ip: string, windowStart: string): Promise<number> {
  await trx.deleteFrom('code_request_windows').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('ip', '=', ip).where('window_start', '<', windowStart).execute();
  const row = await trx
    .insertInto('code_request_windows')
    .values({ account_id: p.accountId, mode: p.mode, ip, window_start: windowStart, count: 1 })
    .onConflict((oc) => oc.columns(['account_id', 'mode', 'ip', 'window_start']).doUpdateSet((eb) => ({ count: eb('code_request_windows.count', '+', 1) })))
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** When the recipient's link was last replaced; undefined when never (the per-link code limits start there). */
export async function lastRetiredAt(db: Db, p: Partition, recipientId: string): Promise<string | undefined> {
  const row = await db.selectFrom('retired_links').select('retired_at').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('recipient_id', '=', recipientId)
    .orderBy('retired_at', 'desc').limit(1).executeTakeFirst();
  return row?.retired_at;
}
