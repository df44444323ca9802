import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * Dashboard sign-in without the command line (issue 37 item 4):
 * - `login_links.purpose`: `sign_in` (every link before this migration: the operator's command, the
 *   first start, and "E-mail me a sign-in link") or `reset` ("Forgot password?"); a link is spent only
 *   by the action it was made for.
 * - `messages.form_id` becomes optional: a sign-in or reset e-mail concerns a user, not a form.
 *
 * SQLite cannot drop a NOT NULL, so there the messages table is rebuilt (same columns and indexes, the
 * rows copied), as 0014 did; PostgreSQL alters the column in place.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('login_links').addColumn('purpose', 'text', (c) => c.notNull().defaultTo('sign_in')).execute();

  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await db.schema
      .createTable('messages_0050')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('form_id', 'text')
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
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('invite'))
      .addColumn('attachment_key', 'text')
      .addColumn('attachment_name', 'text')
      .execute();
    const columns = sql.raw('id, account_id, mode, form_id, recipient_id, channel, to_address, subject, text, html, transport, status, provider_message_id, error, created_at, updated_at, delivered_at, kind, attachment_key, attachment_name');
    await sql`insert into messages_0050 (${columns}) select ${columns} from messages`.execute(db);
    await db.schema.dropTable('messages').execute();
    await db.schema.alterTable('messages_0050').renameTo('messages').execute();
    await db.schema.createIndex('messages_list_idx').on('messages').columns(['account_id', 'mode', 'created_at', 'id']).execute();
    await db.schema.createIndex('messages_recipient_idx').on('messages').column('recipient_id').execute();
    await db.schema.createIndex('messages_delivered_idx').on('messages').column('delivered_at').execute();
  } else {
    await sql`alter table messages alter column form_id drop not null`.execute(db);
  }
}

/** Leaves `form_id` optional: access e-mails written since have none. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('login_links').dropColumn('purpose').execute();
}
