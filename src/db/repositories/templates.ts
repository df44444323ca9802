import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { NewTemplateRow, TemplateRow } from '../tables.js';
import { preparedPage, type Page, type PageQuery } from './pagination.js';

export async function insertTemplate(trx: Trx, p: Partition, row: Omit<NewTemplateRow, 'account_id' | 'mode'>): Promise<void> {
  await trx.insertInto('templates').values({ ...row, account_id: p.accountId, mode: p.mode }).execute();
}

/** Deleted templates included (their forms still read them); the domain decides what the API may see. */
export async function findTemplate(db: Db, p: Partition, id: string): Promise<TemplateRow | undefined> {
  return db.selectFrom('templates').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).executeTakeFirst();
}

const templateIds = preparedPage((db, a: Partition) =>
  // Matches the partial list index (0009): deleted templates are not in it.
  db.selectFrom('templates').select('id').where('account_id', '=', a.accountId).where('mode', '=', a.mode).where('deleted_at', 'is', null),
);

/** The page's ids only: served from the list index alone, without reading the rows' JSON. */
export function listTemplateIds(db: Db, p: Partition, q: PageQuery): Promise<Page<{ id: string }>> {
  return templateIds(db, p, q);
}

/** Deleted templates included, as findTemplate. */
export async function findTemplates(db: Db, p: Partition, ids: string[]): Promise<TemplateRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('templates').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', 'in', ids).execute();
}

/**
 * The live template as the first statement of a write unit, its row locked until the unit commits (on
 * PostgreSQL the UPDATE takes the row lock; SQLite's single writer serialises units anyway), so two
 * concurrent edits cannot both archive the same version. Undefined when missing or deleted.
 */
export async function lockTemplate(trx: Trx, p: Partition, id: string, now: string): Promise<TemplateRow | undefined> {
  return trx
    .updateTable('templates')
    .set({ updated_at: now })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export type TemplatePatch = Partial<Pick<TemplateRow, 'name' | 'fields' | 'signer_count' | 'signers' | 'warnings' | 'version' | 'deleted_at'>> & { updated_at: string };

export async function updateTemplateRow(trx: Trx, p: Partition, id: string, patch: TemplatePatch): Promise<TemplateRow | undefined> {
  return trx.updateTable('templates').set(patch).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Keeps the fields of a version the template is moving past, for the forms made from it. */
export async function insertTemplateVersion(trx: Trx, p: Partition, row: { template_id: string; version: number; fields: string; created_at: string }): Promise<void> {
  await trx.insertInto('template_versions').values({ ...row, account_id: p.accountId, mode: p.mode }).execute();
}

/** The fields of an earlier version of a template. */
export async function findTemplateVersion(db: Db, p: Partition, id: string, version: number): Promise<{ template_id: string; version: number; fields: string } | undefined> {
  return db
    .selectFrom('template_versions')
    .select(['template_id', 'version', 'fields'])
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('template_id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
}
