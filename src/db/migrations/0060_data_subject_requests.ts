import type { Kysely } from 'kysely';

/**
 * Issue 40. A person's data: every export and erasure asked of a partition is recorded here, the
 * account's activity for these requests (no general activity log exists yet). The address itself is
 * not kept — an erasure that kept it would keep what it erased — only its SHA-256 (keyed by nothing:
 * enough to answer "was this person's data asked for, when, by whom"). Recipients are found by
 * address (`recipients_subject_idx`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('data_subject_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_sha256', 'text', (c) => c.notNull())
    .addColumn('forms', 'integer', (c) => c.notNull())
    .addColumn('refused', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('data_subject_requests_partition_idx').on('data_subject_requests').columns(['account_id', 'mode', 'created_at']).execute();
  await db.schema.createIndex('recipients_subject_idx').on('recipients').columns(['account_id', 'mode', 'address_key']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('recipients_subject_idx').execute();
  await db.schema.dropTable('data_subject_requests').execute();
}
