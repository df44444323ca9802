import { sql, type Kysely } from 'kysely';

/**
 * Sending (recipients, the messages sent to them, the job worker) and addressable events:
 * - `events.id` becomes unique, so the webhook publisher and an events API can fetch and mark one
 *   event by id without a scan (the list index stays the one by form, which grows at its end).
 * - `recipients`: one row per person a form was sent to. Only the SHA-256 of the signing token is
 *   stored; `address_key` is the normalised address (lower-cased e-mail, E.164 phone) that makes
 *   "the same recipient" a unique constraint per form and channel.
 * - `messages`: each e-mail or SMS as composed at send time, and what became of it. With no SMTP
 *   server or SMS gateway configured, this table is the dev outbox.
 * - `outbox`: a job definition's `version` beside its kind, and `updated_at`; status gains `dead`
 *   (retries exhausted; the row and its last error stay for the operator).
 * - `service_secrets`: keys the service makes once and every instance shares (the signing-link key),
 *   kept in the database so that several servers on one PostgreSQL agree on them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createIndex('events_id_idx').on('events').column('id').unique().execute();

  await db.schema
    .createTable('recipients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('signer', 'integer', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('address_key', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('delivery_status', 'text', (c) => c.notNull())
    .addColumn('delivery_error', 'text')
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addColumn('viewed_at', 'text')
    .addColumn('signed_at', 'text')
    .addColumn('viewed_ip', 'text')
    .addColumn('viewed_user_agent', 'text')
    .addColumn('signed_ip', 'text')
    .addColumn('signed_user_agent', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('recipients_form_idx').on('recipients').columns(['account_id', 'mode', 'form_id', 'position']).execute();
  await db.schema.createIndex('recipients_address_idx').on('recipients').columns(['form_id', 'channel', 'address_key']).unique().execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('transport', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('provider_message_id', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .execute();
  await db.schema.createIndex('messages_list_idx').on('messages').columns(['account_id', 'mode', 'created_at', 'id']).execute();
  await db.schema.createIndex('messages_recipient_idx').on('messages').column('recipient_id').execute();

  await db.schema.alterTable('outbox').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('outbox').addColumn('updated_at', 'text').execute();
  await sql`update outbox set updated_at = created_at`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('service_secrets').execute();
  await db.schema.dropTable('messages').execute();
  await db.schema.dropTable('recipients').execute();
  await db.schema.dropIndex('events_id_idx').execute();
}
