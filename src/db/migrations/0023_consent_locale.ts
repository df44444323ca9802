import type { Kysely } from 'kysely';

/**
 * The language of the consent a signer agreed to (issue 25, #29): the signing page shows the consent
 * in the signer's language, and `signing_evidence.consent_text` now records that translation, so the
 * audit trail quotes what the signer read; `consent_locale` names its language (a catalogue code such
 * as "de"). Null for signatures recorded before this migration, whose consent was always English.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('signing_evidence').addColumn('consent_locale', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('signing_evidence').dropColumn('consent_locale').execute();
}
