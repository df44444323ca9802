import type { Kysely } from 'kysely';

/**
 * Issue 43 item 5, progress on the server: one draft per recipient (`PUT /sign/<token>/draft`), the
 * values of their own fields typed so far (no signature images), restored on any device that opens
 * the link (after the signer check, when there is one). `window_start`/`window_count` count the saves
 * of the current minute (the route's rate limit, shared by every server through the database);
 * `link_sent_at` is when "Finish later" last sent the link again (its throttle).
 * Personal data, for the purge of a form: `values`. Deleted with the state change that ends the
 * recipient's signing (signed, declined, voided, expired) and by a form's purge.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signing_drafts')
    .addColumn('recipient_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('values', 'text', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('window_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('link_sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signing_drafts_form_idx').on('signing_drafts').columns(['account_id', 'mode', 'form_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signing_drafts').execute();
}
