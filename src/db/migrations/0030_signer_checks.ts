import type { Kysely } from 'kysely';

/**
 * Issue 38, signer checks. Three tables, each keyed by the recipient it concerns:
 * - `recipient_checks`: the check a send asked of a recipient (method, when, the SMS number or the access
 *   code's scrypt hash) and its live state: the current one-time code's hash and expiry, the wrong tries
 *   since the last success or lock, and the lock's end. The database is the truth, so a lock survives a
 *   restart and two API servers count a link's tries once (see db/repositories/signer-checks.ts).
 * - `recipient_check_log`: what happened, for the audit trail and the resend limits: a code sent (with
 *   the masked destination), verified, refused, the link locked.
 * - `signer_sessions`: a browser's session on one link (the cookie's value is never stored, its SHA-256
 *   is), with when it was last used (1 hour idle) and when it passed each check.
 * Personal data, for the purge of a form: `recipient_checks.phone`, `recipient_check_log.destination`
 * (masked) and `.ip`, `signer_sessions.ip` and `.user_agent`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('recipient_checks')
    .addColumn('recipient_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('check_when', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('access_code_hash', 'text')
    .addColumn('code_hash', 'text')
    .addColumn('code_purpose', 'text')
    .addColumn('code_expires_at', 'text')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('recipient_checks_form_idx').on('recipient_checks').columns(['account_id', 'mode', 'form_id']).execute();
  await db.schema
    .createTable('recipient_check_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('destination', 'text')
    .addColumn('ip', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('recipient_check_log_recipient_idx').on('recipient_check_log').columns(['recipient_id', 'kind', 'at']).execute();
  await db.schema.createIndex('recipient_check_log_form_idx').on('recipient_check_log').columns(['account_id', 'mode', 'form_id']).execute();
  await db.schema
    .createTable('signer_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('form_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'text')
    .addColumn('sign_verified_at', 'text')
    .execute();
  await db.schema.createIndex('signer_sessions_recipient_idx').on('signer_sessions').column('recipient_id').execute();
  // A form's purge deletes its sessions by partition and form (db/repositories/form-purge.ts).
  await db.schema.createIndex('signer_sessions_form_idx').on('signer_sessions').columns(['account_id', 'mode', 'form_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signer_sessions').execute();
  await db.schema.dropTable('recipient_check_log').execute();
  await db.schema.dropTable('recipient_checks').execute();
}
