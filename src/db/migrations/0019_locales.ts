import type { Kysely } from 'kysely';

/**
 * The language a signer reads (the signing page, the messages they get):
 * - `recipients.locale`: the BCP 47 tag given at send (canonical form), null when none was given;
 * - `accounts.locale`: the account's default for recipients with none whose browser names no language
 *   a catalogue exists for (`formsign accounts set-locale`), null for English.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('recipients').addColumn('locale', 'text').execute();
  await db.schema.alterTable('accounts').addColumn('locale', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('locale').execute();
  await db.schema.alterTable('recipients').dropColumn('locale').execute();
}
