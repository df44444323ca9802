import type { Partition } from '../../lib/partition.js';
import type { Db } from '../database.js';
import type { Trx } from '../transact.js';
import { preparedQuery } from '../prepared-query.js';
import type { NewTemplateRow, TemplateRow } from '../tables.js';
import { preparedPage, type Page, type PageQuery } from './pagination.js';

export async function insertTemplate(trx: Trx, p: Partition, row: Omit<NewTemplateRow, 'account_id' | 'mode'>): Promise<void> {
  await trx.insertInto('templates').values({ ...row, account_id: p.accountId, mode: p.mode }).execute();
}

const templateById = preparedQuery((db, a: Partition & { id: string }) =>
  db.selectFrom('templates').selectAll().where('account_id', '=', a.accountId).where('mode', '=', a.mode).where('id', '=', a.id),
);

export async function findTemplate(db: Db, p: Partition, id: string): Promise<TemplateRow | undefined> {
  return (await templateById(db, { ...p, id }))[0];
}

const templateIds = preparedPage((db, a: Partition) =>
  db.selectFrom('templates').select('id').where('account_id', '=', a.accountId).where('mode', '=', a.mode),
);

/** The page's ids only: served from the list index alone, without reading the rows' JSON. */
export function listTemplateIds(db: Db, p: Partition, q: PageQuery): Promise<Page<{ id: string }>> {
  return templateIds(db, p, q);
}

export async function findTemplates(db: Db, p: Partition, ids: string[]): Promise<TemplateRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('templates').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', 'in', ids).execute();
}
