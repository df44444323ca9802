import type { Kysely } from 'kysely';

/**
 * The dashboard's people and their sign-ins:
 * - `users`: a person who signs in to an account's dashboard; e-mail unique (stored lower-cased), a
 *   scrypt password hash or null (a user made by an operator signs in with a one-time link first).
 * - `sessions`: server-side, so a sign-out or an operator can end one at once; the cookie carries a
 *   random token and only its SHA-256 is stored. Each session has its own CSRF token.
 * - `login_links`: one-time sign-in links (operator command, first start), stored as SHA-256.
 * - `login_failures`: the throttle's counters, per e-mail and per client address, kept in the store so
 *   every instance counts the same failures.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_account_idx').on('users').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').columns(['user_id']).execute();

  await db.schema
    .createTable('login_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('subject', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .execute();
  // Ended windows are deleted as new failures come in; the index keeps that cheap.
  await db.schema.createIndex('login_failures_window_idx').on('login_failures').columns(['window_start']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['login_failures', 'login_links', 'sessions', 'users']) await db.schema.dropTable(t).execute();
}
