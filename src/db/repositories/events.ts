import type { Partition } from '../../lib/partition.js';
import type { Db } from '../database.js';
import type { EventRow, EventsTable } from '../tables.js';
import { olderThan, toPage, type Page, type PageQuery } from './pagination.js';

export async function insertEvent(db: Db, p: Partition, row: Omit<EventsTable, 'account_id' | 'mode'>): Promise<void> {
  await db.insertInto('events').values({ ...row, account_id: p.accountId, mode: p.mode }).execute();
}

export async function findEvent(db: Db, p: Partition, id: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).executeTakeFirst();
}

export async function listFormEvents(db: Db, p: Partition, formId: string, q: PageQuery): Promise<Page<EventRow>> {
  let query = db
    .selectFrom('events')
    .selectAll()
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('form_id', '=', formId);
  if (q.after) query = query.where(olderThan(q.after));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit + 1).execute();
  return toPage(rows, q.limit);
}
