import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * The completed copy and the sender's notices (issue #23, items 5 and 7):
 * - `account_notify`: per account, where its notices go (`notify_email`: completed, declined, and
 *   viewed when `notify_viewed` is 1); also the Reply-To of every message the account sends. A table
 *   of its own, one row once set, so the accounts table and the code that writes it stay as they are.
 * - `forms.completed_copy`: 1 unless a send said `notify: {completed_copy: false}`; whether the
 *   recipients get the sealed PDF when the form is completed.
 * - `messages.kind`: what a message is for ('invite' for every message before this migration), and
 *   `attachment_key` / `attachment_name`: the blob a message carries (the sealed PDF), read when it is
 *   sent. `recipient_id` becomes optional: a notice goes to the account, not to a recipient.
 *
 * SQLite cannot drop a NOT NULL, so there the messages table is rebuilt (same columns and indexes, the
 * rows copied); PostgreSQL alters the column in place.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_notify')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('notify_email', 'text')
    .addColumn('notify_viewed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('forms').addColumn('completed_copy', 'integer', (c) => c.notNull().defaultTo(1)).execute();

  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await db.schema
      .createTable('messages_0014')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('form_id', 'text', (c) => c.notNull())
      .addColumn('recipient_id', 'text')
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
    const columns = sql.raw('id, account_id, mode, form_id, recipient_id, channel, to_address, subject, text, html, transport, status, provider_message_id, error, created_at, updated_at, delivered_at');
    await sql`insert into messages_0014 (${columns}) select ${columns} from messages`.execute(db);
    await db.schema.dropTable('messages').execute();
    await db.schema.alterTable('messages_0014').renameTo('messages').execute();
    await db.schema.createIndex('messages_list_idx').on('messages').columns(['account_id', 'mode', 'created_at', 'id']).execute();
    await db.schema.createIndex('messages_recipient_idx').on('messages').column('recipient_id').execute();
  } else {
    await sql`alter table messages alter column recipient_id drop not null`.execute(db);
  }
  await db.schema.alterTable('messages').addColumn('kind', 'text', (c) => c.notNull().defaultTo('invite')).execute();
  await db.schema.alterTable('messages').addColumn('attachment_key', 'text').execute();
  await db.schema.alterTable('messages').addColumn('attachment_name', 'text').execute();
}

/** Leaves `recipient_id` optional: notices written since have none. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of ['attachment_name', 'attachment_key', 'kind']) await db.schema.alterTable('messages').dropColumn(c).execute();
  await db.schema.alterTable('forms').dropColumn('completed_copy').execute();
  await db.schema.dropTable('account_notify').execute();
}
