import type { Kysely } from 'kysely';

/**
 * Teams (issue 39):
 * - `users.role`: `owner` | `admin` | `sender` | `viewer` (src/lib/member-roles.ts). Every user made
 *   before this had every power, so existing users become `owner`.
 * - `users.last_sign_in_at`: shown on the Members page.
 * - `sessions.role`: the role a session was issued under. A request whose member's role differs (it
 *   was changed since) gets a new session id at once (session fixation: a new id at every change of
 *   power); null for sessions from before, which are rotated the same way.
 * - `api_keys.created_by`: the e-mail address of the member who made the key, kept as text so it
 *   still reads after the member is removed; null for keys an operator made (CLI, first start).
 * - `invitations`: an e-mailed one-time link to join an account with a role, stored as SHA-256, valid
 *   7 days, spent once (`accepted_at`) or withdrawn (`revoked_at`).
 * - `account_activity`: who did what, to what, from where and when; kept a year (activity.sweep).
 *   The actor's address is kept as text beside the id, so an entry still names a removed member.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('role', 'text', (c) => c.notNull().defaultTo('owner')).execute();
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('role', 'text').execute();
  await db.schema.alterTable('api_keys').addColumn('created_by', 'text').execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('invitations_account_idx').on('invitations').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('account_activity')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('ip', 'text')
    .addColumn('detail', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The page lists an account's newest first; the sweep deletes by age across accounts.
  await db.schema.createIndex('account_activity_account_idx').on('account_activity').columns(['account_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('account_activity_created_idx').on('account_activity').columns(['created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_activity').execute();
  await db.schema.dropTable('invitations').execute();
  await db.schema.alterTable('api_keys').dropColumn('created_by').execute();
  await db.schema.alterTable('sessions').dropColumn('role').execute();
  await db.schema.alterTable('users').dropColumn('last_sign_in_at').execute();
  await db.schema.alterTable('users').dropColumn('role').execute();
}
