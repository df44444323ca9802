import type { Kysely } from 'kysely';

/**
 * `accounts.unmetered` (issue 37): 1 for an account with no monthly quota — the one made at first start
 * and those the operator makes with `formsign accounts create` unless told otherwise: the instance
 * belongs to its owner. 0 (the default, every existing account) counts calls against the plan's quota.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('unmetered', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('unmetered').execute();
}
