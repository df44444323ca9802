import type { Kysely } from 'kysely';

/**
 * Issue 42 item 1, bulk send: one `bulk_sends` row per `POST /bulk-sends` (its counters kept by the
 * transactions that settle its rows, so a read costs one row), and one `bulk_send_rows` row per row of
 * the request, keyed by (bulk id, row number): the job worker creates and sends each row's form at most
 * once by moving that row's state, in the transaction of the write it records. A row's `input` (its
 * prefill and recipients, personal data) is kept only until its form is sent or the row fails.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bulk_sends')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('template_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('bulk_sends_partition_idx').on('bulk_sends').columns(['account_id', 'mode', 'created_at']).execute();
  await db.schema
    .createTable('bulk_send_rows')
    .addColumn('bulk_id', 'text', (c) => c.notNull())
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('input', 'text')
    .addColumn('form_id', 'text')
    .addColumn('error', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('bulk_send_rows_pk', ['bulk_id', 'row'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bulk_send_rows').execute();
  await db.schema.dropTable('bulk_sends').execute();
}
