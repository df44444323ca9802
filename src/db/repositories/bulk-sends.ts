import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { BulkRowStatus, BulkSendRow, BulkSendRowRow } from '../tables.js';
import { preparedPage, type Page, type PageQuery } from './pagination.js';

// Bulk sends and their rows (migration 0080, issue 42). Every query names the partition. The row
// updates are conditional on the state they move from: whoever runs a row twice (a job claimed again
// after a kill -9, a second worker) finds it moved already and writes nothing.

export interface NewBulkRow {
  row: number;
  status: BulkRowStatus;
  input: string | null;
  error: string | null;
}

export async function insertBulkSend(trx: Trx, p: Partition, b: Omit<BulkSendRow, 'account_id' | 'mode'>, rows: readonly NewBulkRow[]): Promise<void> {
  await trx.insertInto('bulk_sends').values({ ...b, account_id: p.accountId, mode: p.mode }).execute();
  // SQLite allows a few thousand bound parameters per statement: 8 a row, 200 rows a statement.
  for (let i = 0; i < rows.length; i += 200) {
    await trx
      .insertInto('bulk_send_rows')
      .values(rows.slice(i, i + 200).map((r) => ({ ...r, bulk_id: b.id, account_id: p.accountId, mode: p.mode, form_id: null, updated_at: b.created_at })))
      .execute();
  }
}

export function findBulkSend(db: Db | Trx, p: Partition, id: string): Promise<BulkSendRow | undefined> {
  return db.selectFrom('bulk_sends').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).executeTakeFirst();
}

const bulkSendsOf = preparedPage((db, a: Partition) =>
  // Served by bulk_sends_partition_idx (account_id, mode, created_at).
  db.selectFrom('bulk_sends').selectAll().where('account_id', '=', a.accountId).where('mode', '=', a.mode),
);

/** The partition's bulk sends, newest first, by (created_at, id). */
export function pageBulkSends(db: Db, p: Partition, q: PageQuery): Promise<Page<BulkSendRow>> {
  return bulkSendsOf(db, p, q);
}

/** Rows in order from `afterRow` (exclusive), `limit` of them. */
export function listBulkRows(db: Db | Trx, p: Partition, bulkId: string, q: { afterRow: number; limit: number; status?: BulkRowStatus }): Promise<BulkSendRowRow[]> {
  let query = db
    .selectFrom('bulk_send_rows')
    .selectAll()
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('bulk_id', '=', bulkId)
    .where('row', '>', q.afterRow);
  if (q.status) query = query.where('status', '=', q.status);
  return query.orderBy('row').limit(q.limit).execute();
}

export function findBulkRow(db: Db | Trx, p: Partition, bulkId: string, row: number): Promise<BulkSendRowRow | undefined> {
  return db.selectFrom('bulk_send_rows').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('bulk_id', '=', bulkId).where('row', '=', row).executeTakeFirst();
}

/** Records the row's new form; false when the row has one already or is settled (someone else ran it). */
export async function setBulkRowForm(trx: Trx, p: Partition, bulkId: string, row: number, formId: string, now: string): Promise<boolean> {
  const r = await trx
    .updateTable('bulk_send_rows')
    .set({ form_id: formId, updated_at: now })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('bulk_id', '=', bulkId)
    .where('row', '=', row)
    .where('status', '=', 'pending')
    .where('form_id', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Settles a pending row (sent or failed) and clears its input; false when it was settled already. On
 * PostgreSQL the update takes the row's lock, so a second runner waits here and then finds it settled.
 */
export async function settleBulkRow(trx: Trx, p: Partition, bulkId: string, row: number, to: { status: 'sent' | 'failed'; error: string | null }, now: string): Promise<boolean> {
  const r = await trx
    .updateTable('bulk_send_rows')
    .set({ status: to.status, error: to.error, input: null, updated_at: now })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('bulk_id', '=', bulkId)
    .where('row', '=', row)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Counts one settled row on its bulk send and returns the counters after it. The update locks the bulk
 * send's row (PostgreSQL) until the commit, so of two rows settled at once the second reads the first's
 * count: exactly one of them sees the last row counted.
 */
export async function countBulkRow(trx: Trx, p: Partition, bulkId: string, outcome: 'sent' | 'failed', now: string): Promise<Pick<BulkSendRow, 'total' | 'sent' | 'failed'> | undefined> {
  const q = trx.updateTable('bulk_sends').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', bulkId);
  const set = outcome === 'sent' ? q.set((eb) => ({ sent: eb('sent', '+', 1), updated_at: now })) : q.set((eb) => ({ failed: eb('failed', '+', 1), updated_at: now }));
  const r = await set.returning(['total', 'sent', 'failed']).executeTakeFirst();
  return r ? { total: Number(r.total), sent: Number(r.sent), failed: Number(r.failed) } : undefined;
}

/** Marks the bulk send completed; false when it was already. */
export async function completeBulkSend(trx: Trx, p: Partition, bulkId: string, now: string): Promise<boolean> {
  const r = await trx
    .updateTable('bulk_sends')
    .set({ status: 'completed', completed_at: now, updated_at: now })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', bulkId)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Fails every row still pending (the worker gave up on the bulk send) and counts them; returns how many. */
export async function failPendingBulkRows(trx: Trx, p: Partition, bulkId: string, error: string, now: string): Promise<number> {
  const r = await trx
    .updateTable('bulk_send_rows')
    .set({ status: 'failed', error, input: null, updated_at: now })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('bulk_id', '=', bulkId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  const n = Number(r.numUpdatedRows);
  if (n > 0) {
    await trx
      .updateTable('bulk_sends')
      .set((eb) => ({ failed: eb('failed', '+', n), updated_at: now }))
      .where('account_id', '=', p.accountId)
      .where('mode', '=', p.mode)
      .where('id', '=', bulkId)
      .execute();
  }
  return n;
}
