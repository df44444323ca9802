import { sql } from 'kysely';
import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import { idAmong } from '../id-among.js';
import { preparedInsert } from '../prepared-insert.js';
import type { FormRow, FormsTable, NewFormRow } from '../tables.js';
import { limitLiteral, olderThan, preparedPage, toPage, type Page, type PageQuery } from './pagination.js';

type FormStatus = FormsTable['status'];

const insertFormRow = preparedInsert('forms', [
  'id', 'account_id', 'mode', 'status', 'name', 'template_id', 'template_version', 'fields', 'values', 'metadata', 'pdf_key',
  'expires_in_days', 'created_at', 'updated_at', 'sent_at', 'completed_at', 'expires_at',
  // 0013
  'signing_order', 'reminder_every_days', 'reminder_max', 'voided_at', 'void_reason',
]);

export function insertForm(trx: Trx, p: Partition, row: Omit<NewFormRow, 'account_id' | 'mode'>): Promise<void> {
  return insertFormRow(trx, { ...row, account_id: p.accountId, mode: p.mode });
}

export async function findForm(db: Db, p: Partition, id: string): Promise<FormRow | undefined> {
  return db.selectFrom('forms').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).executeTakeFirst();
}

/** The partition's forms among `ids` (in no particular order; unknown ids are left out). */
export async function findFormsIn(db: Db, p: Partition, ids: readonly string[]): Promise<FormRow[]> {
  if (ids.length === 0) return [];
  return formsOf(db, p).where(idAmong(db, 'id', ids)).execute();
}

const formsOf = (db: Db, a: Partition) => db.selectFrom('forms').selectAll().where('account_id', '=', a.accountId).where('mode', '=', a.mode);
const allForms = preparedPage(formsOf);
const formsByStatus = preparedPage((db, a: Partition & { status: FormStatus }) => formsOf(db, a).where('status', '=', a.status));

export function listForms(db: Db, p: Partition, q: PageQuery & { status?: FormStatus | undefined }): Promise<Page<FormRow>> {
  return q.status ? formsByStatus(db, { ...p, status: q.status }, q) : allForms(db, p, q);
}

/**
 * Dashboard (issue 24): forms whose name contains `name` (case-insensitive for ASCII on both dialects),
 * newest first, optionally of one status. Plain Kysely, not prepared: a person's search, not a hot path.
 */
export async function searchFormsByName(db: Db, p: Partition, q: PageQuery & { status?: FormStatus | undefined; name: string }): Promise<Page<FormRow>> {
  const pattern = `%${q.name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  let query = formsOf(db, p).where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
  if (q.status) query = query.where('status', '=', q.status);
  if (q.after) query = query.where(olderThan(q.after));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limitLiteral(q.limit + 1)).execute();
  return toPage(rows, q.limit);
}

/**
 * The form as the first statement of a write unit, with its row locked until the unit commits (on
 * PostgreSQL an UPDATE takes the row lock; SQLite's single writer serialises units anyway), so that
 * two concurrent changes of one form (two sends, a send and a signature, a signature and an expiry)
 * cannot both read the old state: EVERY change of a form's state takes it first, and decides on what
 * it returns and on what the unit reads after it. Undefined when the partition has no such form.
 * Without `now`, `updated_at` is left as it is (an expiry sweep that finds the form no longer due).
 */
export async function lockForm(trx: Trx, p: Partition, id: string, now?: string): Promise<FormRow | undefined> {
  return trx
    .updateTable('forms')
    .set((eb) => ({ updated_at: now ?? eb.ref('updated_at') }))
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function updateForm(
  trx: Trx,
  p: Partition,
  id: string,
  patch: Partial<Pick<FormRow, 'status' | 'sent_at' | 'expires_at' | 'expires_in_days' | 'completed_at' | 'updated_at' | 'signing_order' | 'reminder_every_days' | 'reminder_max' | 'voided_at' | 'void_reason'>>,
): Promise<void> {
  await trx.updateTable('forms').set(patch).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).execute();
}
