import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import { preparedInsert } from '../prepared-insert.js';
import type { EventRow, EventsTable } from '../tables.js';
import { preparedPage, type Page, type PageQuery } from './pagination.js';

/** The form an event belongs to, as the index finds it (see EventsTable.form_created_at). */
export interface EventForm {
  id: string;
  created_at: string;
}

const insertEventRow = preparedInsert('events', ['id', 'account_id', 'mode', 'type', 'form_id', 'form_created_at', 'form', 'created_at', 'published_at']);

export function insertEvent(trx: Trx, p: Partition, row: Omit<EventsTable, 'account_id' | 'mode' | 'published_at'>): Promise<void> {
  return insertEventRow(trx, { ...row, account_id: p.accountId, mode: p.mode, published_at: null });
}

type FormArgs = Partition & { formId: string; formCreatedAt: string };

const ofForm = (db: Db, a: FormArgs) =>
  db
    .selectFrom('events')
    .selectAll()
    .where('account_id', '=', a.accountId)
    .where('mode', '=', a.mode)
    .where('form_created_at', '=', a.formCreatedAt)
    .where('form_id', '=', a.formId);
const eventsOfForm = preparedPage(ofForm);

const formArgs = (p: Partition, form: EventForm): FormArgs => ({ accountId: p.accountId, mode: p.mode, formId: form.id, formCreatedAt: form.created_at });

export async function findEvent(db: Db, p: Partition, form: EventForm, id: string): Promise<EventRow | undefined> {
  return ofForm(db, formArgs(p, form)).where('id', '=', id).executeTakeFirst();
}

export function listFormEvents(db: Db, p: Partition, form: EventForm, q: PageQuery): Promise<Page<EventRow>> {
  return eventsOfForm(db, formArgs(p, form), q);
}
