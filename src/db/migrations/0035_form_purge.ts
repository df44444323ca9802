import type { Kysely } from 'kysely';

/**
 * Issue 40, deleting a finished form. The form row stays as its tombstone: `deleted_at`, the SHA-256 of
 * its sealed PDF (so a copy someone still holds can be checked against it) and `tombstone` (JSON of
 * counts: recipients, signatures, events). `purge_state` is `blobs` while its stored files are still
 * being deleted and `done` after; the files still to delete are rows of `purge_blobs`, written in the
 * transaction that empties the database rows, each removed once its file is gone, so a purge killed
 * midway continues where it stopped (the `form.purge` job, enqueued in the same transaction).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('forms')
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.alterTable('forms').addColumn('purge_state', 'text').execute();
  await db.schema.alterTable('forms').addColumn('sealed_sha256', 'text').execute();
  await db.schema.alterTable('forms').addColumn('tombstone', 'text').execute();
  // POST /verify looks a PDF up by its SHA-256 among the tombstones.
  await db.schema.createIndex('forms_sealed_sha256_idx').on('forms').column('sealed_sha256').execute();
  await db.schema
    .createTable('purge_blobs')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('purge_blobs_pk', ['account_id', 'mode', 'form_id', 'blob_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('purge_blobs').execute();
  await db.schema.dropIndex('forms_sealed_sha256_idx').execute();
  for (const c of ['tombstone', 'sealed_sha256', 'purge_state', 'deleted_at']) await db.schema.alterTable('forms').dropColumn(c).execute();
}
