import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest } from '../../src/db/database.js';
import { resolveSession } from '../../src/domain/users/sessions.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { systemClock } from '../../src/lib/clock.js';
import { DIALECTS, type openStore } from '../harness.js';
import { storeAt } from './support/migrate-up-to.js';

// Migration 0070 (teams, issue 39) on users and sessions from before it: every user had every power,
// so each becomes an owner; a session from before has no issued role, so the first request after it
// gets a new session id (guard.ts), and the session still signs its user in.

const ACCOUNT = 'acct_migration0070';
const AT = '2026-01-01T00:00:00.000Z';

for (const dialect of DIALECTS) {
  describe(`migration 0070 on users and sessions written before it (${dialect})`, () => {
    let s: Awaited<ReturnType<typeof openStore>>;
    before(async () => {
      const { store, db } = await storeAt(dialect, 'm0070', '0065_signing_drafts', ACCOUNT, AT);
      s = store;
      await db.insertInto('users').values({ id: 'usr_old', account_id: ACCOUNT, email: 'old@example.com', password_hash: null, created_at: AT, updated_at: AT }).execute();
      await db.insertInto('sessions').values({ token_hash: sha256Hex('old-token'), user_id: 'usr_old', account_id: ACCOUNT, csrf_token: 'c'.repeat(43), created_at: AT, expires_at: '2999-01-01T00:00:00.000Z', revoked_at: null }).execute();
      await db.insertInto('api_keys').values({ id: 'key_old', account_id: ACCOUNT, mode: 'test', label: null, prefix: 'fk_test_', last4: 'abcd', key_hash: 'k'.repeat(64), created_at: AT, last_used_at: null, revoked_at: null }).execute();
      const applied = await migrateToLatest(s.handle);
      assert.ok(applied.includes('0070_teams'), applied.join(', '));
    });
    after(() => s.close());

    it('makes every user an owner; an old session still signs in, with no issued role; an old key has no maker', async () => {
      const user = await s.handle.db.selectFrom('users').selectAll().where('id', '=', 'usr_old').executeTakeFirstOrThrow();
      assert.deepEqual([user.role, user.last_sign_in_at], ['owner', null]);
      const session = await resolveSession({ db: s.handle.db, clock: systemClock }, 'old-token');
      assert.deepEqual([session?.role, session?.issuedRole, session?.view.user.role], ['owner', null, 'owner']);
      const key = await s.handle.db.selectFrom('api_keys').selectAll().where('id', '=', 'key_old').executeTakeFirstOrThrow();
      assert.equal(key.created_by, null);
      assert.deepEqual(await s.handle.db.selectFrom('account_activity').selectAll().execute(), []);
      assert.deepEqual(await s.handle.db.selectFrom('invitations').selectAll().execute(), []);
    });
  });
}
