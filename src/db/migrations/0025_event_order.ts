import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * Issue 35, item 1: the order of the events API is one a reader can trust.
 *
 * `created_at` is taken before its transaction commits, so a reader could see an event appear below one
 * it had already read (a poller lost 3–7 % of events under concurrent writes). Events are now listed by
 * `seq`, which follows commit order within a partition:
 * - SQLite has one writer at a time: the insert computes `seq` as `max(seq) + 1` while its transaction
 *   holds the write lock (`events_seq_idx` finds the max).
 * - PostgreSQL commits concurrently, so an event is inserted without `seq` and numbered as the last
 *   statement of its transaction from `event_counters`, one row per partition: the row stays locked
 *   until that transaction commits, so the next one is numbered after it is visible (db/event-order.ts).
 * Rows from before this migration are numbered in their old order (created_at, id).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema.alterTable('events').addColumn('seq', 'bigint').execute();
  if (sqlite) {
    await sql`update events set seq = o.n from (select id, row_number() over (order by created_at, id) as n from events) as o where o.id = events.id`.execute(db);
    await db.schema.createIndex('events_seq_idx').on('events').column('seq').execute();
  } else {
    await sql`update events set seq = o.n from (select id, row_number() over (partition by account_id, mode order by created_at, id) as n from events) as o where o.id = events.id`.execute(db);
    await db.schema
      .createTable('event_counters')
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('value', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('event_counters_pk', ['account_id', 'mode'])
      .execute();
    await sql`insert into event_counters (account_id, mode, value) select account_id, mode, max(seq) from events group by account_id, mode`.execute(db);
  }
  await db.schema.dropIndex('events_type_idx').execute();
  await db.schema.dropIndex('events_partition_idx').execute();
  await db.schema.createIndex('events_order_idx').on('events').columns(['account_id', 'mode', 'seq']).unique().execute();
  await db.schema.createIndex('events_type_order_idx').on('events').columns(['account_id', 'mode', 'type', 'seq']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_type_order_idx').execute();
  await db.schema.dropIndex('events_order_idx').execute();
  await db.schema.createIndex('events_partition_idx').on('events').columns(['account_id', 'mode', 'created_at', 'id']).execute();
  await db.schema.createIndex('events_type_idx').on('events').columns(['account_id', 'mode', 'type', 'created_at', 'id']).execute();
  if (db.getExecutor().adapter instanceof SqliteAdapter) await db.schema.dropIndex('events_seq_idx').execute();
  else await db.schema.dropTable('event_counters').execute();
  await db.schema.alterTable('events').dropColumn('seq').execute();
}
