import type { Kysely } from 'kysely';

/**
 * Issue 43 item 4, page boxes reserved before the PDF arrives: each stored document's page sizes, as
 * displayed (PDF points, rotation applied), by its file in the blob store (`pdf_key`). A template and
 * the forms made from it share one file, so they share one row; a generated form has its own.
 * `page_sizes` is JSON `[[width, height], …]`, one pair per page. Written at import (measured in the
 * PDF worker pool with the upload's inspection); a document stored before this migration gets its row
 * the first time a signing page needs it (measured in the pool then), so nothing is backfilled here:
 * reading every stored PDF in a migration would hold the deploy for minutes on a large store.
 * No personal data (sizes only); a purged form's row goes with its file.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_pages')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('pdf_key', 'text', (c) => c.notNull())
    .addColumn('page_sizes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_pages_pk', ['account_id', 'mode', 'pdf_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('document_pages').execute();
}
