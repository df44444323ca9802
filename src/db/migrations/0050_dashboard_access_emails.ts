import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * Dashboard sign-in without the command line (issue 37 item 4):
 * - `login_links.purpose`: `sign_in` (every link before this migration: the operator's command, the
 *   first start, and "E-mail me a sign-in link") or `reset` ("Forgot password?"); a link is spent only
 *   by the action it was made for.
 * - `messages.form_id` becomes optional: a sign-in or reset e-mail concerns a user, not a form.
 *
 * SQLite cannot drop a NOT NULL, so there the messages table is rebuilt from its own definition (the
 * same columns, in the same order, and the same indexes; the rows copied); PostgreSQL alters the column
 * in place.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('login_links').addColumn('purpose', 'text', (c) => c.notNull().defaultTo('sign_in')).execute();

  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    // Rebuilt from the table's own definition, whatever columns and indexes it has by now (another
    // migration may have added some), with only form_id's NOT NULL taken away.
    const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'messages'`.execute(db);
    const definition = table.rows[0]?.sql ?? '';
    const relaxed = definition.replace(/"form_id" text not null/i, '"form_id" text');
    if (relaxed === definition) throw new Error(`0050: messages.form_id is not "text not null" in: ${definition}`);
    const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = 'messages' and sql is not null`.execute(db);
    await sql.raw(relaxed.replace(/^create table\s+"?messages"?/i, 'create table "messages_0050"')).execute(db);
    await sql`insert into messages_0050 select * from messages`.execute(db);
    await db.schema.dropTable('messages').execute();
    await db.schema.alterTable('messages_0050').renameTo('messages').execute();
    for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
  } else {
    await sql`alter table messages alter column form_id drop not null`.execute(db);
  }
}

/** Leaves `form_id` optional: access e-mails written since have none. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('login_links').dropColumn('purpose').execute();
}
