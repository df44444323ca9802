import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest } from '../../src/db/database.js';
import { listTemplateIds } from '../../src/db/repositories/templates.js';
import { findForm } from '../../src/db/repositories/forms.js';
import { formFields } from '../../src/domain/forms/read-forms.js';
import { deleteTemplate } from '../../src/domain/templates/delete-template.js';
import { TemplateCache } from '../../src/domain/templates/template-cache.js';
import { updateTemplate } from '../../src/domain/templates/update-template.js';
import { systemClock } from '../../src/lib/clock.js';
import type { Partition } from '../../src/lib/partition.js';
import type { FieldDef } from '../../src/pdf/field.js';
import { DIALECTS, openStore } from '../harness.js';
import { storeAt } from './support/migrate-up-to.js';

// Migration 0009 on a store written before it: the templates there are version 1, their forms refer
// to them with no version (null), and after an edit those forms still read the fields they were made
// with. The list (now a partial index) still lists live templates and leaves deleted ones out.

const ACCOUNT = 'acct_migration0009';
const P: Partition = { accountId: ACCOUNT, mode: 'test' };
const TEMPLATE_ID = 'tmpl_migration0009aaaaaaaaaa';
const FORM_ID = 'form_migration0009aaaaaaaaaaa';
const AT = '2026-01-01T00:00:00.000Z';
const OLD: FieldDef[] = [{ name: 'full_name', type: 'text', required: true, signer: 1, page: 1, x: 72, y: 100, width: 200, height: 20 }];
const NEW: FieldDef[] = [{ name: 'signature', type: 'signature', required: true, signer: 1, page: 1, x: 72, y: 700, width: 200, height: 40 }];

for (const dialect of DIALECTS) {
  describe(`migration 0009 on data written before it (${dialect})`, () => {
    let s: Awaited<ReturnType<typeof openStore>>;
    before(async () => {
      // Written with 0007's columns only (no version, no deleted_at, no template_version).
      const { store, db } = await storeAt(dialect, 'm0009', '0007_sealed_files', ACCOUNT, AT);
      s = store;
      await db.insertInto('templates').values({
        id: TEMPLATE_ID, account_id: ACCOUNT, mode: 'test', name: 'Old', page_count: 1, fields: JSON.stringify(OLD), signer_count: 1,
        warnings: '[]', pdf_key: 'k.pdf', pdf_sha256: '0'.repeat(64), created_at: AT, updated_at: AT,
      }).execute();
      await db.insertInto('forms').values({
        id: FORM_ID, account_id: ACCOUNT, mode: 'test', status: 'draft', name: null, template_id: TEMPLATE_ID, fields: null, values: '{}', metadata: '{}',
        pdf_key: 'k.pdf', expires_in_days: 30, created_at: AT, updated_at: AT, sent_at: null, completed_at: null, expires_at: null,
      }).execute();
      const applied = await migrateToLatest(s.handle);
      assert.ok(applied.includes('0009_template_versions'), applied.join(', '));
    });
    after(() => s.close());

    it('an old form reads version 1; after an edit and a delete it still does, and the list leaves the deleted template out', async () => {
      const deps = { db: s.handle.db, transact: s.handle.transact, clock: systemClock, templateCache: new TemplateCache(1 << 20) };
      const form = await findForm(deps.db, P, FORM_ID);
      assert.ok(form);
      assert.equal(form.template_version, null);
      assert.deepEqual((await formFields(deps, P, form)).defs, OLD);

      const edited = await updateTemplate(deps, P, TEMPLATE_ID, { fields: NEW });
      assert.deepEqual(edited.fields, NEW);
      assert.deepEqual((await formFields(deps, P, form)).defs, OLD, 'through this process’s cache');
      const cold = { ...deps, templateCache: new TemplateCache(1 << 20) };
      assert.deepEqual((await formFields(cold, P, form)).defs, OLD, 'from the store (template_versions)');

      assert.deepEqual((await listTemplateIds(deps.db, P, { limit: 10 })).rows.map((r) => r.id), [TEMPLATE_ID]);
      await deleteTemplate(deps, P, TEMPLATE_ID);
      assert.deepEqual((await listTemplateIds(deps.db, P, { limit: 10 })).rows, []);
      assert.deepEqual((await formFields({ ...deps, templateCache: new TemplateCache(1 << 20) }, P, form)).defs, OLD);
    });
  });
}
