import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { migrateToLatest } from '../../src/db/database.js';
import { DIALECTS, openStore } from '../harness.js';
import { storeAt } from './support/migrate-up-to.js';

// Migration 0050 on data written before it: on SQLite the messages table is rebuilt (form_id becomes
// optional), so every message must come through unchanged, with its indexes and any column or index a
// migration of another branch added before it; a login link made
// before it is a sign-in link. After it, an e-mail about a user's access fits without a form.

const ACCOUNT = 'acct_migration0050';
const AT = '2026-01-01T00:00:00.000Z';

interface Row {
  [column: string]: unknown;
}

for (const dialect of DIALECTS) {
  describe(`migration 0050 on messages and login links written before it (${dialect})`, () => {
    let s: Awaited<ReturnType<typeof openStore>>;
    const old: Row[] = [0, 1].map((i) => ({
      id: `msg_old${i}`, account_id: ACCOUNT, mode: 'test', form_id: 'form_old', recipient_id: i === 0 ? 'rcp_old0' : null, channel: 'email',
      extra_0049: i === 0 ? 'kept' : null, to_address: `r${i}@example.com`, subject: `Subject ${i}`, text: `text ${i}`, html: `<p>${i}</p>`,
      transport: i === 0 ? 'smtp' : null, status: i === 0 ? 'delivered' : 'queued', provider_message_id: i === 0 ? '<msg_old0@x>' : null, error: null,
      created_at: AT, updated_at: AT, delivered_at: i === 0 ? AT : null,
      kind: i === 0 ? 'invite' : 'notice_completed', attachment_key: i === 1 ? 'a/b.pdf' : null, attachment_name: i === 1 ? 'b.pdf' : null,
    }));
    before(async () => {
      const { store, db } = await storeAt(dialect, 'm0050', '0045_unmetered_accounts', ACCOUNT, AT);
      s = store;
      // A column and an index another branch's migration may have added before this one: kept.
      await sql`alter table messages add column extra_0049 text`.execute(s.handle.db);
      await sql`create index messages_extra_0049_idx on messages (extra_0049)`.execute(s.handle.db);
      for (const r of old) await db.insertInto('messages').values(r).execute();
      await db.insertInto('users').values({ id: 'user_old', account_id: ACCOUNT, email: 'old@example.com', password_hash: null, created_at: AT, updated_at: AT }).execute();
      await db.insertInto('login_links').values({ token_hash: 'h'.repeat(64), user_id: 'user_old', created_at: AT, expires_at: AT, used_at: null }).execute();
      const applied = await migrateToLatest(s.handle);
      assert.ok(applied.includes('0050_dashboard_access_emails'), applied.join(', '));
    });
    after(() => s.close());

    it('every message comes through as it was; an access e-mail without a form fits; an old link is a sign-in link', async () => {
      const db = s.handle.db as unknown as Kysely<{ messages: Row; login_links: Row }>;
      assert.deepEqual(await db.selectFrom('messages').selectAll().orderBy('id').execute(), old);
      await db.insertInto('messages').values({ ...old[1]!, id: 'msg_access', form_id: null, kind: 'password_reset', attachment_key: null, attachment_name: null }).execute();
      assert.deepEqual(await db.selectFrom('messages').select(['form_id', 'kind']).where('id', '=', 'msg_access').executeTakeFirstOrThrow(), { form_id: null, kind: 'password_reset' });
      assert.deepEqual(await db.selectFrom('login_links').select(['user_id', 'purpose']).execute(), [{ user_id: 'user_old', purpose: 'sign_in' }]);
    });

    it('the list, recipient and delivered indexes exist after the rebuild, and one added by another migration', async () => {
      const names = dialect === 'sqlite'
        ? (await s.handle.db.selectFrom('sqlite_master' as never).select('name' as never).where('type' as never, '=', 'index' as never).where('tbl_name' as never, '=', 'messages' as never).execute()).map((r) => (r as { name: string }).name)
        : (await s.handle.db.selectFrom('pg_indexes' as never).select('indexname' as never).where('tablename' as never, '=', 'messages' as never).where('schemaname' as never, '=', s.pgSchema as never).execute()).map((r) => (r as { indexname: string }).indexname);
      for (const index of ['messages_list_idx', 'messages_recipient_idx', 'messages_delivered_idx', 'messages_extra_0049_idx']) assert.ok(names.includes(index), `${index} in ${names.join(', ')}`);
    });
  });
}
