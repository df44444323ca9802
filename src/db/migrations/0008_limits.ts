import type { Kysely } from 'kysely';

/**
 * `account_usage`: API calls per account per UTC calendar month ('YYYY-MM'), the monthly quota's
 * counter. Servers count in memory and add their batch every second or so with one upsert
 * (`calls = calls + n`), atomic on both dialects, so several processes share one total.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_usage')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('calls', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_usage_pk', ['account_id', 'month'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_usage').execute();
}
