import type { Kysely } from 'kysely';

/**
 * The per-address limit on code attempts (issue 38): wrong codes are counted by client IP across an
 * account's links (one address trying many links), read from `recipient_check_log` by this index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('recipient_check_log_ip_idx').on('recipient_check_log').columns(['account_id', 'mode', 'ip', 'kind', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('recipient_check_log_ip_idx').execute();
}
