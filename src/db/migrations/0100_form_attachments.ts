import type { Kysely } from 'kysely';

/**
 * Issue 41 item 5, files a signer attaches: one row per file uploaded on the signing page into an
 * `attachment` field (`POST /sign/<token>/attachments`), its bytes in the blob store under `blob_key`.
 * `submitted_at` is null while the signer may still remove it and is set when they sign (the files
 * then belong to the form: sealed after the document, served by `GET /forms/{id}/attachments/{id}`);
 * an unsigned upload is deleted with its field's hiding at signing, or by the form's purge.
 * Personal data, for the purge of a form: `filename` and the file itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('form_attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('field_name', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'text')
    .execute();
  await db.schema.createIndex('form_attachments_form_idx').on('form_attachments').columns(['account_id', 'mode', 'form_id']).execute();
  await db.schema.createIndex('form_attachments_recipient_idx').on('form_attachments').columns(['account_id', 'mode', 'recipient_id', 'field_name']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('form_attachments').execute();
}
