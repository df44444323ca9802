import { sql, type Kysely } from 'kysely';

/**
 * Webhooks and their deliveries:
 * - `webhooks`: the endpoint, its subscribed event types (JSON array), its signing secret (kept in the
 *   clear: an HMAC key must be usable), the secret it replaced with the time that one stops being
 *   used (rotation overlap), and `failing_since` — the first failed attempt of the current run of
 *   failures, which disables the webhook once it is three days old.
 * - `webhook_deliveries`: one row per (webhook, event), unique, so a publisher that runs twice cannot
 *   deliver an event twice; the body is stored at the first attempt so every attempt sends the same
 *   bytes; `attempt_log` keeps each attempt's outcome (bounded: see deliver-webhook.ts). Rows older
 *   than 30 days are swept (`webhook_deliveries_created_idx`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_until', 'text')
    .addColumn('failing_since', 'text')
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_partition_idx').on('webhooks').columns(['account_id', 'mode', 'created_at', 'id']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('next_attempt_at', 'text')
    .addColumn('attempt_log', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_once_idx').on('webhook_deliveries').columns(['webhook_id', 'event_id']).unique().execute();
  await db.schema.createIndex('webhook_deliveries_list_idx').on('webhook_deliveries').columns(['account_id', 'mode', 'webhook_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_created_idx').on('webhook_deliveries').column('created_at').execute();
  await sql`create index webhook_deliveries_pending_idx on webhook_deliveries (webhook_id) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
