import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Migrator } from 'kysely';
import { migrateToLatest, migrations } from '../../src/db/database.js';
import { findDocumentPages, putDocumentPages } from '../../src/db/repositories/document-pages.js';
import { DIALECTS, openStore } from '../harness.js';
import { storeAt } from './support/migrate-up-to.js';

// Migration 0105 (issue 43 item 4) on a store written before it: the document_pages table comes empty
// (a document stored before it is measured the first time a signing page needs it: first-page.test.ts),
// one row per file and partition, a second write of the same file's sizes keeps the first.

const ACCOUNT = 'acct_migration0105';
const AT = '2026-01-01T00:00:00.000Z';

for (const dialect of DIALECTS) {
  describe(`migration 0105: each stored document's page sizes (${dialect})`, () => {
    let s: Awaited<ReturnType<typeof openStore>>;
    before(async () => {
      const { store } = await storeAt(dialect, 'm0105', '0100_form_attachments', ACCOUNT, AT);
      s = store;
      const applied = await migrateToLatest(s.handle);
      assert.ok(applied.includes('0105_document_pages'), applied.join(', '));
    });
    after(() => s.close());

    it('starts empty; a file has one row per partition; a second write keeps the first', async () => {
      const test = { accountId: ACCOUNT, mode: 'test' as const };
      const live = { accountId: ACCOUNT, mode: 'live' as const };
      const key = `${ACCOUNT}/test/templates/tmpl_x.pdf`;
      assert.equal(await findDocumentPages(s.handle.db, test, key), undefined);
      await putDocumentPages(s.handle.db, test, key, '[[612,792]]', AT);
      await putDocumentPages(s.handle.db, test, key, '[[1,1]]', AT);
      assert.equal(await findDocumentPages(s.handle.db, test, key), '[[612,792]]');
      // Scoped by partition: the same key in live mode is another row (none yet).
      assert.equal(await findDocumentPages(s.handle.db, live, key), undefined);
      const rows = await s.handle.db.selectFrom('document_pages').selectAll().execute();
      assert.deepEqual(rows, [{ account_id: ACCOUNT, mode: 'test', pdf_key: key, page_sizes: '[[612,792]]', created_at: AT }]);
    });
  });

  describe(`a migration merged after a later one was applied still applies (${dialect})`, () => {
    it('a store with 0105 applied but not 0100 (as when branches merge out of order) starts, and gets 0100', async () => {
      const s2 = await openStore(dialect, 'unordered');
      try {
        const without = Object.fromEntries(Object.entries(migrations).filter(([name]) => name !== '0100_form_attachments'));
        const { error } = await new Migrator({ db: s2.handle.db, provider: { getMigrations: async () => without }, ...(s2.handle.pgSchema ? { migrationTableSchema: s2.handle.pgSchema } : {}) }).migrateToLatest();
        assert.equal(error, undefined);
        assert.deepEqual(await migrateToLatest(s2.handle), ['0100_form_attachments']);
        assert.deepEqual(await migrateToLatest(s2.handle), [], 'each once');
        await s2.handle.db.selectFrom('form_attachments').select('id').execute();
      } finally {
        await s2.close();
      }
    });
  });
}
