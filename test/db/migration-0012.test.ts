import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Migrator, type Kysely, type MigrationProvider } from 'kysely';
import { migrateToLatest, type DatabaseHandle } from '../../src/db/database.js';
import * as m0001 from '../../src/db/migrations/0001_initial.js';
import * as m0002 from '../../src/db/migrations/0002_lean_form_writes.js';
import * as m0003 from '../../src/db/migrations/0003_sending.js';
import * as m0004 from '../../src/db/migrations/0004_worker.js';
import * as m0005 from '../../src/db/migrations/0005_signing.js';
import * as m0006 from '../../src/db/migrations/0006_webhooks.js';
import * as m0007 from '../../src/db/migrations/0007_sealed_files.js';
import * as m0008 from '../../src/db/migrations/0008_limits.js';
import * as m0009 from '../../src/db/migrations/0009_template_versions.js';
import * as m0010 from '../../src/db/migrations/0010_dashboard.js';
import * as m0011 from '../../src/db/migrations/0011_claimable_jobs.js';
import { NO_FIELDS_UPLOADED } from '../../src/domain/templates/template-warnings.js';
import { DIALECTS, openStore } from '../harness.js';

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

async function migrateTo0011(handle: DatabaseHandle): Promise<void> {
  const provider: MigrationProvider = {
    getMigrations: async () => ({
      '0001_initial': m0001, '0002_lean_form_writes': m0002, '0003_sending': m0003, '0004_worker': m0004, '0005_signing': m0005,
      '0006_webhooks': m0006, '0007_sealed_files': m0007, '0008_limits': m0008, '0009_template_versions': m0009,
      '0010_dashboard': m0010, '0011_claimable_jobs': m0011,
    }),
  };
  const migrator = new Migrator({ db: handle.db, provider, ...(handle.pgSchema ? { migrationTableSchema: handle.pgSchema } : {}) });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

for (const dialect of DIALECTS) {
  describe(`migration 0012 on templates edited before it (${dialect})`, () => {
    let s: Awaited<ReturnType<typeof openStore>>;
    before(async () => {
      s = await openStore(dialect, 'm0012');
      await migrateTo0011(s.handle);
      const db = s.handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      await db.insertInto('accounts').values({ id: ACCOUNT, name: 'Migrating', email: null, plan: 'paid', monthly_limit: null, per_minute_limit: null, created_at: AT, updated_at: AT }).execute();
      for (const [id, r] of Object.entries(ROWS)) {
        await db.insertInto('templates').values({
          id: `tmpl_${id}`, account_id: ACCOUNT, mode: 'test', name: id, page_count: 1, fields: JSON.stringify(r.fields), signer_count: 1,
          warnings: JSON.stringify(r.warnings), pdf_key: 'k.pdf', pdf_sha256: '0'.repeat(64), created_at: AT, updated_at: AT,
        }).execute();
      }
      const applied = await migrateToLatest(s.handle);
      assert.deepEqual(applied, ['0012_current_field_warnings']);
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
