import type { Kysely } from 'kysely';

/**
 * `recipients.meaning` (issue 38): what the recipient's signature means ("Approved", "Reviewed",
 * "Author"; at most 80 characters), as the send gave it; null when none. The signing page shows it
 * before signing, the sealed PDF prints it beside each of their signatures with their name and the
 * UTC time (21 CFR 11.50's manifestation), and the audit trail states it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('recipients').addColumn('meaning', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('recipients').dropColumn('meaning').execute();
}
