import type { Partition } from '../../lib/partition.js';
import type { Db } from '../database.js';
import type { NewTemplateRow, TemplateRow } from '../tables.js';
import { olderThan, toPage, type Page, type PageQuery } from './pagination.js';

export async function insertTemplate(db: Db, p: Partition, row: Omit<NewTemplateRow, 'account_id' | 'mode'>): Promise<void> {
  await db.insertInto('templates').values({ ...row, account_id: p.accountId, mode: p.mode }).execute();
}

export async function findTemplate(db: Db, p: Partition, id: string): Promise<TemplateRow | undefined> {
  return db
    .selectFrom('templates')
    .selectAll()
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The page's ids only: served from the list index alone, without reading the rows' JSON. */
export async function listTemplateIds(db: Db, p: Partition, q: PageQuery): Promise<Page<{ id: string }>> {
  let query = db.selectFrom('templates').select('id').where('account_id', '=', p.accountId).where('mode', '=', p.mode);
  if (q.after) query = query.where(olderThan(q.after));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit + 1).execute();
  return toPage(rows, q.limit);
}

export async function findTemplates(db: Db, p: Partition, ids: string[]): Promise<TemplateRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('templates').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', 'in', ids).execute();
}
