import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest } from '../../src/db/database.js';
import { findTemplate } from '../../src/db/repositories/templates.js';
import { presentTemplate } from '../../src/domain/templates/present-template.js';
import { DIALECTS, openStore } from '../harness.js';
import { storeAt } from './support/migrate-up-to.js';

// Migration 0021 on a template written before it: the template names no signer slot (`signers` []),
// and its Template object is otherwise what it was.

const ACCOUNT = 'acct_migration0021';
const AT = '2026-01-01T00:00:00.000Z';
const FIELD = { name: 'client', type: 'signature', required: true, signer: 2, page: 1, x: 72, y: 90, width: 250, height: 40 };

for (const dialect of DIALECTS) {
  describe(`migration 0021 on a template written before it (${dialect})`, () => {
    let s: Awaited<ReturnType<typeof openStore>>;
    before(async () => {
      const { store, db } = await storeAt(dialect, 'm0021', '0020_daily_usage', ACCOUNT, AT);
      s = store;
      await db.insertInto('templates').values({
        id: 'tmpl_old', account_id: ACCOUNT, mode: 'test', name: 'Old', page_count: 1, fields: JSON.stringify([FIELD]), signer_count: 2,
        warnings: '[]', pdf_key: 'k.pdf', pdf_sha256: '0'.repeat(64), created_at: AT, updated_at: AT,
      }).execute();
      assert.deepEqual((await migrateToLatest(s.handle)).slice(0, 1), ['0021_signer_roles']); // later migrations follow it
    });
    after(() => s.close());

    it('names no slot and keeps every other property', async () => {
      const row = await findTemplate(s.handle.db, { accountId: ACCOUNT, mode: 'test' }, 'tmpl_old');
      assert.ok(row);
      assert.deepEqual(presentTemplate(row), {
        object: 'template', id: 'tmpl_old', name: 'Old', mode: 'test', page_count: 1, fields: [FIELD], signer_count: 2, signers: [], warnings: [],
        created_at: AT, updated_at: AT,
      });
    });
  });
}
