import { SqliteAdapter, sql } from 'kysely';
import type { Partition } from '../../lib/partition.js';
import { notePendingEvent } from '../event-order.js';
import type { Db, Trx } from '../handles.js';
import { preparedInsert } from '../prepared-insert.js';
import type { EventRow, EventsTable } from '../tables.js';
import { limitLiteral, preparedPage, toPage, type Page, type PageQuery } from './pagination.js';

/** The form an event belongs to, as the index finds it (see EventsTable.form_created_at). */
export interface EventForm {
  id: string;
  created_at: string;
}

// The order of the events API (0025). SQLite: `seq` is computed by the insert while its transaction
// holds the one write lock, so it is commit order. PostgreSQL: the event is numbered when its
// transaction ends (event-order.ts).
const insertEventRow = preparedInsert('events', ['id', 'account_id', 'mode', 'type', 'form_id', 'form_created_at', 'form', 'created_at', 'published_at'], (db) =>
  isSqlite(db) ? { seq: sql<unknown>`(select coalesce(max(seq), 0) + 1 from events)` } : ({} as Record<string, never>),
);

function isSqlite(db: Db): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

export async function insertEvent(trx: Trx, p: Partition, row: Omit<EventsTable, 'account_id' | 'mode' | 'published_at' | 'seq'>): Promise<void> {
  await insertEventRow(trx, { ...row, account_id: p.accountId, mode: p.mode, published_at: null });
  if (!isSqlite(trx)) notePendingEvent(trx, p, row.id);
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

// The events API (issue 26): a partition's events across its forms, in the order of 0025 (`tx`, `seq`)
// under events_order_idx and events_type_order_idx, or a form's under events_form_idx. Plain Kysely: its
// shape follows the filters.

/** An event's place in the feed's order. */
export type EventPosition = number | string;

/** One event of the partition by its id (events_id_idx), at or after `since`. */
export function findPartitionEvent(db: Db, p: Partition, id: string, since: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('id', '=', id).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('created_at', '>=', since).executeTakeFirst();
}

export interface EventFilter {
  type?: string | undefined;
  /** The form and its created_at (the form index starts with it). */
  form?: EventForm | undefined;
  /** Inclusive lower bound of created_at. */
  since: string;
  /** Exclusive upper bound of created_at. */
  before?: string | undefined;
}

export interface EventPageQuery {
  limit: number;
  /** Older than this event (`starting_after`). */
  olderThan?: EventPosition | undefined;
  /** Newer than this event (`ending_before`): the page is the `limit` events nearest above it. */
  newerThan?: EventPosition | undefined;
}

/** A newest-first page of the partition's events matching `f`, in the feed's order (`seq`). */
export async function listPartitionEvents(db: Db, p: Partition, f: EventFilter, q: EventPageQuery): Promise<Page<EventRow>> {
  let query = db.selectFrom('events').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode);
  if (f.form) query = query.where('form_created_at', '=', f.form.created_at).where('form_id', '=', f.form.id);
  if (f.type !== undefined) query = query.where('type', '=', f.type);
  query = query.where('created_at', '>=', f.since);
  if (f.before !== undefined) query = query.where('created_at', '<', f.before);
  if (q.olderThan !== undefined) query = query.where('seq', '<', q.olderThan);
  if (q.newerThan !== undefined) {
    // The `limit` events nearest above the cursor, read upwards, then shown newest first like every page.
    const rows = await query.where('seq', '>', q.newerThan).orderBy('seq', 'asc').limit(limitLiteral(q.limit + 1)).execute();
    const page = toPage(rows, q.limit);
    return { rows: page.rows.reverse(), hasMore: page.hasMore };
  }
  const rows = await query.where('seq', 'is not', null).orderBy('seq', 'desc').limit(limitLiteral(q.limit + 1)).execute();
  return toPage(rows, q.limit);
}
