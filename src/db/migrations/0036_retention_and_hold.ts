import type { Kysely } from 'kysely';

/**
 * Issue 40. `accounts.retention_days`: finished forms older than this many days (1–3650) are purged by
 * the daily retention job; null (the default) keeps them. A legal hold on a form (`hold_reason`,
 * `hold_by`, `hold_at`) keeps it from every purge, by retention or by DELETE, until it is released.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('retention_days', 'integer').execute();
  await db.schema.alterTable('forms').addColumn('hold_reason', 'text').execute();
  await db.schema.alterTable('forms').addColumn('hold_by', 'text').execute();
  await db.schema.alterTable('forms').addColumn('hold_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of ['hold_at', 'hold_by', 'hold_reason']) await db.schema.alterTable('forms').dropColumn(c).execute();
  await db.schema.alterTable('accounts').dropColumn('retention_days').execute();
}
