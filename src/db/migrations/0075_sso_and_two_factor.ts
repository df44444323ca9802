import type { Kysely } from 'kysely';

/**
 * Single sign-on with OpenID Connect and two-factor sign-in (issue 39 items 3 and 4):
 * - `account_sign_in`: an account's policy, `sso_required` (1: its users sign in through the provider
 *   only, no password) and `require_2fa` (1: password users must enrol a TOTP authenticator);
 * - `sso_domains`: the e-mail domains an account claimed (the operator's CLI adds them, which is the
 *   verification); a domain belongs to at most one account (its primary key);
 * - `sso_flows`: one row per started provider sign-in, keyed by the SHA-256 of the browser cookie's
 *   token, with its state, nonce and PKCE verifier; spent once (`used_at`), short-lived;
 * - `user_totp`: a user's confirmed secret, the one an enrolment showed and not yet confirmed, and the
 *   last time step a code was accepted for (a code works once);
 * - `recovery_codes`: ten per enrolment, SHA-256 only, each spent once;
 * - `sessions.pending_step`: `code` (password right, the second factor not yet given) or `enrol` (the
 *   account requires 2FA and the user has none yet); null for a full session.
 * Kept beside accounts and users rather than in them, so their rows (and the code that builds them)
 * stay as they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_sign_in')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('sso_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('require_2fa', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sso_domains')
    .addColumn('domain', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_domains_account_idx').on('sso_domains').columns(['account_id']).execute();
  await db.schema
    .createTable('sso_flows')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('sso_flows_expires_idx').on('sso_flows').columns(['expires_at']).execute();
  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('pending_secret', 'text')
    .addColumn('enabled_at', 'text')
    .addColumn('last_step', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('recovery_codes_user_idx').on('recovery_codes').columns(['account_id', 'user_id']).execute();
  await db.schema.alterTable('sessions').addColumn('pending_step', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('pending_step').execute();
  for (const t of ['recovery_codes', 'user_totp', 'sso_flows', 'sso_domains', 'account_sign_in']) await db.schema.dropTable(t).execute();
}
