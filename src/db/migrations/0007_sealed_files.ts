import type { Kysely } from 'kysely';

/**
 * `sealed_files`: the signed PDF of a form, one row per form, written in the transaction that makes
 * the form `signed` (so a signed form always has its file, and a file is never half-recorded). Kept
 * apart from `forms` so the hot form insert stays as narrow as it is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sealed_files')
    .addColumn('form_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sealed_files').execute();
}
