import type { Partition } from '../../lib/partition.js';
import type { Db } from '../database.js';
import { preparedInsert } from '../prepared-insert.js';
import type { FormRow, FormsTable, NewFormRow } from '../tables.js';
import { olderThan, toPage, type Page, type PageQuery } from './pagination.js';

const insertFormRow = preparedInsert('forms', [
  'id', 'account_id', 'mode', 'status', 'name', 'template_id', 'fields', 'values', 'metadata', 'pdf_key',
  'expires_in_days', 'created_at', 'updated_at', 'sent_at', 'completed_at', 'expires_at',
]);

export function insertForm(db: Db, p: Partition, row: Omit<NewFormRow, 'account_id' | 'mode'>): Promise<void> {
  return insertFormRow(db, { ...row, account_id: p.accountId, mode: p.mode });
}

export async function findForm(db: Db, p: Partition, id: string): Promise<FormRow | undefined> {
  return db
    .selectFrom('forms')
    .selectAll()
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listForms(
  db: Db,
  p: Partition,
  q: PageQuery & { status?: FormsTable['status'] | undefined },
): Promise<Page<FormRow>> {
  let query = db.selectFrom('forms').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode);
  if (q.status) query = query.where('status', '=', q.status);
  if (q.after) query = query.where(olderThan(q.after));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit + 1).execute();
  return toPage(rows, q.limit);
}
