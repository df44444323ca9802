import type { Kysely } from 'kysely';

/**
 * `account_usage_daily`: per account and UTC day ('YYYY-MM-DD'), the API calls counted toward the
 * monthly quota and the requests refused with 429 — the dashboard's usage chart (issue 24). Written
 * by the quota counter's periodic flush, in the same transaction as `account_usage`, with the same
 * additive upsert, so several processes share one total per day. Kept small: one row per active day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_usage_daily')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('calls', 'integer', (c) => c.notNull())
    .addColumn('limited', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_usage_daily_pk', ['account_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_usage_daily').execute();
}
