import type { Kysely } from 'kysely';

/**
 * What the audit trail states of each signature besides time, address and browser: the consent text
 * the signer agreed to, as it was shown, and the signer's UTC offset as their browser reported it. A
 * table of its own (one row per signed recipient) rather than recipient columns: recipients are
 * written on the send path, which never has these. Signatures made before this migration have none.
 * And the SHA-256 the sealed file's audit page states (the filled document before the seal), so the
 * audit trail served alone states the same one without rendering the document again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signing_evidence')
    .addColumn('recipient_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('consent_text', 'text', (c) => c.notNull())
    .addColumn('utc_offset_minutes', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signing_evidence_form_idx').on('signing_evidence').columns(['account_id', 'mode', 'form_id']).execute();
  await db.schema.alterTable('sealed_files').addColumn('filled_sha256', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sealed_files').dropColumn('filled_sha256').execute();
  await db.schema.dropTable('signing_evidence').execute();
}
