import type { Kysely } from 'kysely';

/**
 * Signing: one row per signature or initials image a recipient submitted. The image itself lives in
 * the blob store (under the form's partition); the row says which field it fills, who drew it, how
 * (drawn or typed) and its SHA-256, so the seal job draws exactly the image that was signed and the
 * audit trail can name it. One image per (form, field): a field belongs to one signer slot.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signatures')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('field_name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('signatures_pkey', ['account_id', 'mode', 'form_id', 'field_name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signatures').execute();
}
