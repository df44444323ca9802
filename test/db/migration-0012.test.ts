import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../../src/db/database.js';
import { NO_FIELDS_UPLOADED } from '../../src/domain/templates/template-warnings.js';
import { DIALECTS, openStore } from '../harness.js';
import { storeAt } from './support/migrate-up-to.js';

// Migration 0012 on templates written before the warnings followed the fields: one edited to have
// fields still carried the upload's "no form fields"; it loses that warning and keeps the file's. One
// that still has no fields keeps it, and so does every other template's list.

const ACCOUNT = 'acct_migration0012';
const AT = '2026-01-01T00:00:00.000Z';
const SCRIPTS = 'Removed active content so that the document cannot change itself or contact other servers: 2 scripts.';
const FIELD = { name: 'client', type: 'text', required: false, signer: 1, page: 1, x: 72, y: 90, width: 250, height: 18 };
const ROWS = {
  edited: { fields: [FIELD], warnings: [SCRIPTS, NO_FIELDS_UPLOADED], expected: [SCRIPTS] },
  editedOnlyWarning: { fields: [FIELD], warnings: [NO_FIELDS_UPLOADED], expected: [] },
  stillEmpty: { fields: [], warnings: [NO_FIELDS_UPLOADED], expected: [NO_FIELDS_UPLOADED] },
  fillable: { fields: [FIELD], warnings: [SCRIPTS], expected: [SCRIPTS] },
};

for (const dialect of DIALECTS) {
  describe(`migration 0012 on templates edited before it (${dialect})`, () => {
    let s: Awaited<ReturnType<typeof openStore>>;
    before(async () => {
      const { store, db } = await storeAt(dialect, 'm0012', '0011_claimable_jobs', ACCOUNT, AT);
      s = store;
      for (const [id, r] of Object.entries(ROWS)) {
        await db.insertInto('templates').values({
          id: `tmpl_${id}`, account_id: ACCOUNT, mode: 'test', name: id, page_count: 1, fields: JSON.stringify(r.fields), signer_count: 1,
          warnings: JSON.stringify(r.warnings), pdf_key: 'k.pdf', pdf_sha256: '0'.repeat(64), created_at: AT, updated_at: AT,
        }).execute();
      }
      const applied = await migrateToLatest(s.handle);
      assert.deepEqual(applied.slice(0, 1), ['0012_current_field_warnings']); // later migrations follow it
    });
    after(() => s.close());

    it("a template with fields loses the upload's no-fields warning and keeps the file's; others are unchanged", async () => {
      const db = s.handle.db as unknown as Kysely<{ templates: { id: string; warnings: string; updated_at: string } }>;
      const rows = await db.selectFrom('templates').select(['id', 'warnings', 'updated_at']).orderBy('id').execute();
      assert.deepEqual(
        Object.fromEntries(rows.map((r) => [r.id, JSON.parse(r.warnings) as string[]])),
        Object.fromEntries(Object.entries(ROWS).map(([id, r]) => [`tmpl_${id}`, r.expected])),
      );
      assert.ok(rows.every((r) => r.updated_at === AT), 'a correction of the warnings is not an edit');
    });
  });
}
