import { sql, type Kysely } from 'kysely';

// Only portable column types (text, integer): the same migration runs on SQLite and PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('plan', 'text', (c) => c.notNull().check(sqlIn('plan', ['trial', 'paid'])))
    .addColumn('monthly_limit', 'integer')
    .addColumn('per_minute_limit', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sqlIn('mode', ['live', 'test'])))
    .addColumn('label', 'text')
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_account_idx').on('api_keys').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('page_count', 'integer', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('signer_count', 'integer', (c) => c.notNull())
    .addColumn('warnings', 'text', (c) => c.notNull())
    .addColumn('pdf_key', 'text', (c) => c.notNull())
    .addColumn('pdf_sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Lists are newest first within one partition; the id breaks ties of equal timestamps.
  await db.schema.createIndex('templates_list_idx').on('templates').columns(['account_id', 'mode', 'created_at', 'id']).execute();

  await db.schema
    .createTable('forms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('template_id', 'text')
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('values', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('pdf_key', 'text', (c) => c.notNull())
    .addColumn('expires_in_days', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('forms_list_idx').on('forms').columns(['account_id', 'mode', 'created_at', 'id']).execute();
  await db.schema.createIndex('forms_status_idx').on('forms').columns(['account_id', 'mode', 'status', 'created_at']).execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_form_idx').on('events').columns(['account_id', 'mode', 'form_id', 'created_at']).execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // Workers claim due rows by (status, run_at).
  await db.schema.createIndex('outbox_due_idx').on('outbox').columns(['status', 'run_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['outbox', 'events', 'forms', 'templates', 'api_keys', 'accounts']) {
    await db.schema.dropTable(t).execute();
  }
}

// Values are constants of this file, never input, so inlining them is safe.
function sqlIn(column: string, values: string[]) {
  return sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);
}
