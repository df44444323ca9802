import type { Kysely } from 'kysely';

/**
 * Issue 42 item 4: an account's brand, one row per account (both modes share it: it is the company's
 * look, not a partition's data). `logo` is the image as served (PNG bytes as base64, or the sanitised
 * SVG text), at most 200 KB before encoding; `accent_color` is the colour as used (`#rrggbb`, already
 * darkened to 4.5:1 on white when the one given was lighter) and `accent_requested` the one given.
 * `logo_sha256` names the logo's public, content-addressed address. Not tied to a form: the purge of a form leaves it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_branding')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('logo_type', 'text')
    .addColumn('logo', 'text')
    .addColumn('logo_sha256', 'text')
    .addColumn('accent_color', 'text')
    .addColumn('accent_requested', 'text')
    .addColumn('sender_name', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The logo's public address is its SHA-256 (`/brand/logo/<sha256>.<ext>`): found by it, cached forever.
  await db.schema.createIndex('account_branding_logo_idx').on('account_branding').column('logo_sha256').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_branding').execute();
}
