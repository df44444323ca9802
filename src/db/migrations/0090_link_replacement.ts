import type { Kysely } from 'kysely';

/**
 * Issue 38 items 5 and 7: a recipient's link replaced, and the per-address limit on asking for codes.
 * - `recipients.link_generation`: which link of the recipient is live. A link's token is an HMAC of the
 *   recipient id (lib/signing-links.ts); generation 0 keeps exactly that derivation, so every link sent
 *   before this migration stays valid, and generation n > 0 mixes n in. Correcting a recipient (the
 *   sender's PATCH, or the signer passing the form on) bumps it and stores the new token's hash: the
 *   recipient keeps its id (API clients' references, its fields, its place in the signing order).
 * - `forms.allow_reassign`: the send's `allow_reassign` (1: the signer may pass the form on).
 * - `retired_links`: each replaced link, by its token's hash, with who the recipient was then and who
 *   replaced it why. An old link resolves here to a 410 page; the audit trail lists both.
 *   Personal data, for the purge of a form: `name`, `email`, `phone`, `reason`.
 * - `code_request_windows`: codes asked for (auth/start) per client address and account, in fixed
 *   windows, counted by one upsert so two servers count each request once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('recipients').addColumn('link_generation', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('forms').addColumn('allow_reassign', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createTable('retired_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('locale', 'text')
    .addColumn('replaced_by', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('retired_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('retired_links_form_idx').on('retired_links').columns(['account_id', 'mode', 'form_id']).execute();
  await db.schema.createIndex('retired_links_recipient_idx').on('retired_links').columns(['recipient_id', 'retired_at']).execute();
  await db.schema
    .createTable('code_request_windows')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('code_request_windows_pk', ['account_id', 'mode', 'ip', 'window_start'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('code_request_windows').execute();
  await db.schema.dropTable('retired_links').execute();
  await db.schema.alterTable('forms').dropColumn('allow_reassign').execute();
  await db.schema.alterTable('recipients').dropColumn('link_generation').execute();
}
