import type { Kysely } from 'kysely';

/**
 * Issue 26. `embed_origins`: the origins (scheme://host[:port]) allowed to frame a partition's signing pages
 * (issue 26, embedded signing). One row per origin per partition; the signing page's
 * `Content-Security-Policy: frame-ancestors` lists them, and none means the page is never framed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('embed_origins')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('embed_origins_pk', ['account_id', 'mode', 'origin'])
    .execute();
  // The hourly retention sweep empties the bodies of messages delivered more than 30 days ago (they
  // hold signing links): found by delivery time, not by reading the whole table.
  await db.schema.createIndex('messages_delivered_idx').on('messages').column('delivered_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_delivered_idx').execute();
  await db.schema.dropTable('embed_origins').execute();
}
