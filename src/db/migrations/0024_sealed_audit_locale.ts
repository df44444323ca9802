import type { Kysely } from 'kysely';

/**
 * The language the seal drew the audit pages in (the account's default at that moment), kept with the
 * sealed file so the audit trail served alone (GET …/audit-trail) is drawn in the same language as the
 * pages inside the sealed PDF even after the account's default changes. Null for files sealed before
 * this migration (they are drawn in the account's current default, as then).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sealed_files').addColumn('audit_locale', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sealed_files').dropColumn('audit_locale').execute();
}
