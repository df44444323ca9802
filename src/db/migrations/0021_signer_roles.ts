import type { Kysely } from 'kysely';

/**
 * `templates.signers`: the names the sender gives a template's signer slots ("Tenant", "Landlord"), as
 * a JSON array `[{slot, role}]` ordered by slot — the shape the generator answers with for generated
 * forms, so one concept has one shape. Slots without a name are not listed; '[]' for every template
 * made before this migration. Shown to the sender when sending (the recipient row's role).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('templates').addColumn('signers', 'text', (c) => c.notNull().defaultTo('[]')).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('templates').dropColumn('signers').execute();
}
