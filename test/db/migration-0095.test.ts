import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest } from '../../src/db/database.js';
import { findDocumentPages, putDocumentPages } from '../../src/db/repositories/document-pages.js';
import { DIALECTS, openStore } from '../harness.js';
import { storeAt } from './support/migrate-up-to.js';

// Migration 0095 (issue 43 item 4) on a store written before it: the document_pages table comes empty
// (a document stored before it is measured the first time a signing page needs it: first-page.test.ts),
// one row per file and partition, a second write of the same file's sizes keeps the first.

const ACCOUNT = 'acct_migration0095';
const AT = '2026-01-01T00:00:00.000Z';

for (const dialect of DIALECTS) {
  describe(`migration 0095: each stored document's page sizes (${dialect})`, () => {
    let s: Awaited<ReturnType<typeof openStore>>;
    before(async () => {
      const { store } = await storeAt(dialect, 'm0095', '0090_link_replacement', ACCOUNT, AT);
      s = store;
      const applied = await migrateToLatest(s.handle);
      assert.ok(applied.includes('0095_document_pages'), applied.join(', '));
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
}
