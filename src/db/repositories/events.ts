import type { Partition } from '../../lib/partition.js';
import type { Db } from '../database.js';
import { preparedInsert } from '../prepared-insert.js';
import type { EventRow, EventsTable } from '../tables.js';
import { olderThan, toPage, type Page, type PageQuery } from './pagination.js';

/** The form an event belongs to, as the index finds it (see EventsTable.form_created_at). */
export interface EventForm {
  id: string;
  created_at: string;
}

const insertEventRow = preparedInsert('events', ['id', 'account_id', 'mode', 'type', 'form_id', 'form_created_at', 'form', 'created_at', 'published_at']);

export function insertEvent(db: Db, p: Partition, row: Omit<EventsTable, 'account_id' | 'mode' | 'published_at'>): Promise<void> {
  return insertEventRow(db, { ...row, account_id: p.accountId, mode: p.mode, published_at: null });
}

function ofForm(db: Db, p: Partition, form: EventForm) {
  return db
    .selectFrom('events')
    .selectAll()
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('form_created_at', '=', form.created_at)
    .where('form_id', '=', form.id);
}

export async function findEvent(db: Db, p: Partition, form: EventForm, id: string): Promise<EventRow | undefined> {
  return ofForm(db, p, form).where('id', '=', id).executeTakeFirst();
}

export async function listFormEvents(db: Db, p: Partition, form: EventForm, q: PageQuery): Promise<Page<EventRow>> {
  let query = ofForm(db, p, form);
  if (q.after) query = query.where(olderThan(q.after));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit + 1).execute();
  return toPage(rows, q.limit);
}
