import type { Kysely } from 'kysely';

/**
 * Issue 26, items 1 and 2.
 *
 * `idempotency_keys`: one row per `Idempotency-Key` of a partition, kept 24 hours (idempotency.sweep).
 * While its request runs the row is `in_flight` and names the request that owns it (`owner`, with
 * `locked_at` for the lease); the answer (status, the headers that matter, the body) is written in the
 * transaction of the write it answers, which makes the row `done`. `request_hash` is the SHA-256 of the
 * method, path and body, so the same key sent with another request is recognised.
 *
 * `events_partition_idx`: the events API lists a partition's events newest first, across forms (the
 * older `events_form_idx` starts with the form); `events_type_idx` serves the `type` filter the same way.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('locked_at', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_headers', 'text')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'mode', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').columns(['created_at']).execute();
  await db.schema.createIndex('events_partition_idx').on('events').columns(['account_id', 'mode', 'created_at', 'id']).execute();
  await db.schema.createIndex('events_type_idx').on('events').columns(['account_id', 'mode', 'type', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_type_idx').execute();
  await db.schema.dropIndex('events_partition_idx').execute();
  await db.schema.dropTable('idempotency_keys').execute();
}
