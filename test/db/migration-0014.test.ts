import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../../src/db/database.js';
import { DIALECTS, openStore } from '../harness.js';
import { storeAt } from './support/migrate-up-to.js';

// Migration 0014 on messages written before it: on SQLite the messages table is rebuilt (recipient_id
// becomes optional), so every row must come through unchanged, as an invitation, with its indexes;
// after it a notice without a recipient can be stored, and forms default to sending completed copies.

const ACCOUNT = 'acct_migration0014';
const AT = '2026-01-01T00:00:00.000Z';

interface Row {
  [column: string]: unknown;
}

for (const dialect of DIALECTS) {
  describe(`migration 0014 on messages written before it (${dialect})`, () => {
    let s: Awaited<ReturnType<typeof openStore>>;
    const old: Row[] = [0, 1, 2].map((i) => ({
      id: `msg_old${i}`, account_id: ACCOUNT, mode: 'test', form_id: 'form_old', recipient_id: `rcp_old${i}`, channel: i === 2 ? 'sms' : 'email',
      to_address: i === 2 ? '+14155550123' : `r${i}@example.com`, subject: i === 2 ? null : `Subject ${i}`, text: `text ${i}`, html: i === 2 ? null : `<p>${i}</p>`,
      transport: i === 0 ? 'smtp' : null, status: i === 0 ? 'delivered' : 'queued', provider_message_id: i === 0 ? '<msg_old0@x>' : null, error: null,
      created_at: AT, updated_at: AT, delivered_at: i === 0 ? AT : null,
    }));
    before(async () => {
      const { store, db } = await storeAt(dialect, 'm0014', '0012_current_field_warnings', ACCOUNT, AT);
      s = store;
      for (const r of old) await db.insertInto('messages').values(r).execute();
      await db.insertInto('forms').values({
        id: 'form_old', account_id: ACCOUNT, mode: 'test', status: 'sent', name: 'Old', template_id: null, fields: '[]', template_version: null, values: '{}', metadata: '{}',
        pdf_key: 'k.pdf', expires_in_days: 30, created_at: AT, updated_at: AT, sent_at: AT, completed_at: null, expires_at: null,
      }).execute();
      const applied = await migrateToLatest(s.handle);
      assert.ok(applied.includes('0014_completed_copy_and_notices'), applied.join(', '));
    });
    after(() => s.close());

    it('every message comes through as it was, as an invitation without attachment; a notice without a recipient fits', async () => {
      const db = s.handle.db as unknown as Kysely<{ messages: Row; forms: Row; account_notify: Row }>;
      const rows = await db.selectFrom('messages').selectAll().orderBy('id').execute();
      assert.deepEqual(rows, old.map((r) => ({ ...r, kind: 'invite', attachment_key: null, attachment_name: null })));
      await db.insertInto('messages').values({ ...old[1]!, id: 'msg_notice', recipient_id: null, kind: 'notice_completed', attachment_key: 'a/b.pdf', attachment_name: 'b.pdf' }).execute();
      const notice = await db.selectFrom('messages').select(['recipient_id', 'kind']).where('id', '=', 'msg_notice').executeTakeFirstOrThrow();
      assert.deepEqual(notice, { recipient_id: null, kind: 'notice_completed' });
      const form = await db.selectFrom('forms').select('completed_copy').where('id', '=', 'form_old').executeTakeFirstOrThrow();
      assert.equal(Number(form.completed_copy), 1);
      assert.deepEqual(await db.selectFrom('account_notify').selectAll().execute(), []);
    });

    it('the list and recipient indexes exist after the rebuild', async () => {
      const names = dialect === 'sqlite'
        ? (await s.handle.db.selectFrom('sqlite_master' as never).select('name' as never).where('type' as never, '=', 'index' as never).where('tbl_name' as never, '=', 'messages' as never).execute()).map((r) => (r as { name: string }).name)
        : (await s.handle.db.selectFrom('pg_indexes' as never).select('indexname' as never).where('tablename' as never, '=', 'messages' as never).where('schemaname' as never, '=', s.pgSchema as never).execute()).map((r) => (r as { indexname: string }).indexname);
      assert.ok(names.includes('messages_list_idx'), names.join(', '));
      assert.ok(names.includes('messages_recipient_idx'), names.join(', '));
    });
  });
}
