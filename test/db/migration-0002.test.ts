import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Migrator, sql, type MigrationProvider } from 'kysely';
import { migrateToLatest, type DatabaseHandle } from '../../src/db/database.js';
import * as m0001 from '../../src/db/migrations/0001_initial.js';
import { getForm, listFormEvents } from '../../src/domain/forms/read-forms.js';
import type { EventView, FormView } from '../../src/domain/forms/present-form.js';
import type { CachedTemplate } from '../../src/domain/context.js';
import { Lru } from '../../src/lib/lru.js';
import { createSigningLinks } from '../../src/lib/signing-links.js';
import type { Partition } from '../../src/lib/partition.js';
import type { FieldDef, FieldValue } from '../../src/pdf/field.js';
import { DIALECTS, openStore, type DialectName } from '../harness.js';

// Migration 0002 rewrites data stored under 0001: events kept their whole rendered body (with the
// form's field definitions); they now keep a snapshot of the form row. Reading must not tell the
// difference.

/** A fresh, unmigrated store. */
const openEmptyStore = (dialect: DialectName) => openStore(dialect, 'm0002');

/** Applies 0001 alone, as a store last migrated before 0002 existed. */
async function migrateTo0001(handle: DatabaseHandle): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => ({ '0001_initial': m0001 }) };
  const migrator = new Migrator({ db: handle.db, provider, ...(handle.pgSchema ? { migrationTableSchema: handle.pgSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  assert.deepEqual(results?.map((r) => [r.migrationName, r.status]), [['0001_initial', 'Success']]);
}

const FIELDS: FieldDef[] = [
  { name: 'full_name', type: 'text', label: 'Full name', required: true, signer: 1, page: 1, x: 72, y: 100, width: 200, height: 18, max_length: 80 },
  { name: 'notes', type: 'text', required: false, signer: 1, page: 1, x: 72, y: 130, width: 300, height: 60, multiline: true },
  { name: 'agree', type: 'checkbox', required: false, signer: 1, page: 1, x: 72, y: 200, width: 12, height: 12 },
  { name: 'newsletter', type: 'checkbox', required: false, signer: 1, page: 1, x: 72, y: 220, width: 12, height: 12 },
  { name: 'color', type: 'select', required: false, signer: 1, page: 2, x: 72, y: 100, width: 100, height: 18, options: ['red', 'green', 'blue'] },
  { name: 'amount', type: 'number', required: false, signer: 1, page: 2, x: 72, y: 130, width: 100, height: 18 },
  { name: 'start', type: 'date', required: false, signer: 1, page: 2, x: 72, y: 160, width: 100, height: 18 },
  { name: 'comment', type: 'text', required: false, signer: 1, page: 2, x: 72, y: 190, width: 100, height: 18 },
  { name: 'signature', type: 'signature', required: true, signer: 2, page: 2, x: 72, y: 700, width: 200, height: 40 },
];

const ACCOUNT = 'acct_migration0002';
const TEST: Partition = { accountId: ACCOUNT, mode: 'test' };
const LIVE: Partition = { accountId: ACCOUNT, mode: 'live' };
const TEMPLATE_ID = 'tmpl_migration0002';
const TEMPLATE_CREATED = '2026-01-01T00:00:00.000Z';

interface OldFormRow {
  id: string;
  mode: 'test' | 'live';
  status: 'draft' | 'sent' | 'viewed' | 'signed' | 'expired';
  name: string | null;
  template_id: string;
  values: Record<string, FieldValue>;
  metadata: Record<string, string>;
  created_at: string;
  sent_at: string | null;
  completed_at: string | null;
  expires_at: string | null;
}

/** The Form object as 0001's presentForm built it (field definitions with `value`, nulls filled in). */
function oldForm(f: OldFormRow): FormView {
  return {
    object: 'form',
    id: f.id,
    mode: f.mode,
    status: f.status,
    name: f.name,
    template_id: f.template_id,
    fields: FIELDS.map((d) => ({ ...d, value: f.values[d.name] ?? null })),
    recipients: [],
    created_at: f.created_at,
    sent_at: f.sent_at,
    completed_at: f.completed_at,
    expires_at: f.expires_at,
    metadata: f.metadata,
    // What 0013 adds, as a form from before it shows them.
    signing_order: 'parallel',
    reminders: null,
    voided_at: null,
    void_reason: null,
    // What 0015 adds: no seal yet for a form that is not signed.
    sealing: null,
  } as FormView;
}

function oldEvent(id: string, type: EventView['type'], at: string, form: OldFormRow): EventView {
  return { object: 'event', id, type, created_at: at, mode: form.mode, data: { object: oldForm(form) } };
}

/** The snapshot 0002 should derive from an old event: the head, the non-null values, the metadata. */
function expectedSnapshot(f: OldFormRow): Record<string, unknown> {
  return {
    id: f.id, mode: f.mode, status: f.status, name: f.name, template_id: f.template_id,
    created_at: f.created_at, sent_at: f.sent_at, completed_at: f.completed_at, expires_at: f.expires_at,
    values: Object.fromEntries(Object.entries(f.values).filter(([, v]) => v !== null)),
    metadata: f.metadata,
  };
}

// The form as stored now (sent), and as it was when created (draft): events keep the latter.
const FORM_NOW: OldFormRow = {
  id: 'form_migration0002_a',
  mode: 'test',
  status: 'sent',
  name: 'Onboarding Łódź "quoted" \\ 日本語',
  template_id: TEMPLATE_ID,
  // false, 0 and '' are values and must survive; an explicit null is no value.
  values: { full_name: 'Ada Lovelace', notes: 'line 1\nline 2', agree: true, newsletter: false, color: 'green', amount: 0, comment: '', start: null },
  metadata: { customer: 'c_42', 'ключ': 'значение', '10': 'ten', '2': 'two' },
  created_at: '2026-01-02T03:04:05.678Z',
  sent_at: '2026-01-03T00:00:00.000Z',
  completed_at: null,
  expires_at: '2026-02-02T00:00:00.000Z',
};
const FORM_AT_CREATION: OldFormRow = { ...FORM_NOW, status: 'draft', sent_at: null, expires_at: null };
const EVENT_CREATED = oldEvent('event_migration0002_1', 'form.created', FORM_NOW.created_at, FORM_AT_CREATION);
const EVENT_SENT = oldEvent('event_migration0002_2', 'form.sent', FORM_NOW.sent_at!, FORM_NOW);

// A second form of the same account in live mode, with no values and no metadata.
const FORM_LIVE: OldFormRow = {
  id: 'form_migration0002_live',
  mode: 'live',
  status: 'draft',
  name: null,
  template_id: `${TEMPLATE_ID}_live`,
  values: {},
  metadata: {},
  created_at: '2026-01-04T00:00:00.000Z',
  sent_at: null,
  completed_at: null,
  expires_at: null,
};
const EVENT_LIVE = oldEvent('event_migration0002_live', 'form.created', FORM_LIVE.created_at, FORM_LIVE);

for (const dialect of DIALECTS) {
  describe(`migration 0002 on data written under 0001 (${dialect})`, () => {
    let s: Awaited<ReturnType<typeof openEmptyStore>>;
    let db: DatabaseHandle['db'];
    let applied: string[];
    const deps = () => ({ db, templateCache: new Lru<string, CachedTemplate>(100), links: createSigningLinks({ baseUrl: 'http://localhost:3000', key: 'k'.repeat(43) }) });

    before(async () => {
      s = await openEmptyStore(dialect);
      db = s.handle.db;
      await migrateTo0001(s.handle);

      await db.insertInto('accounts').values({ id: ACCOUNT, name: 'Migrating', email: null, plan: 'paid', monthly_limit: null, per_minute_limit: null, created_at: TEMPLATE_CREATED, updated_at: TEMPLATE_CREATED }).execute();
      for (const mode of ['test', 'live'] as const) {
        await db
          .insertInto('templates')
          .values({
            id: mode === 'test' ? TEMPLATE_ID : `${TEMPLATE_ID}_live`, account_id: ACCOUNT, mode, name: 'Template', page_count: 2, fields: JSON.stringify(FIELDS), signer_count: 2,
            warnings: '[]', pdf_key: `templates/${mode}.pdf`, pdf_sha256: '0'.repeat(64), created_at: TEMPLATE_CREATED, updated_at: TEMPLATE_CREATED,
          })
          .execute();
      }
      for (const f of [FORM_NOW, FORM_LIVE]) {
        await db
          .insertInto('forms')
          .values({
            id: f.id, account_id: ACCOUNT, mode: f.mode, status: f.status, name: f.name, template_id: f.template_id,
            // Under 0001 every form kept its own copy of the field definitions (NOT NULL).
            fields: JSON.stringify(FIELDS),
            values: JSON.stringify(f.values), metadata: JSON.stringify(f.metadata), pdf_key: 'templates/test.pdf', expires_in_days: 30,
            created_at: f.created_at, updated_at: f.sent_at ?? f.created_at, sent_at: f.sent_at, completed_at: f.completed_at, expires_at: f.expires_at,
          })
          .execute();
      }
      for (const [e, formId] of [[EVENT_CREATED, FORM_NOW.id], [EVENT_SENT, FORM_NOW.id], [EVENT_LIVE, FORM_LIVE.id]] as const) {
        // 0001's events columns; `data` held the full event body.
        await sql`insert into events (id, account_id, mode, type, form_id, data, created_at)
          values (${e.id}, ${ACCOUNT}, ${e.mode}, ${e.type}, ${formId}, ${JSON.stringify(e)}, ${e.created_at})`.execute(db);
        // 0001 wrote an event.publish job beside every event.
        await sql`insert into outbox (id, account_id, mode, kind, payload, status, run_at, created_at)
          values (${`job_${e.id}`}, ${ACCOUNT}, ${e.mode}, 'event.publish', ${JSON.stringify({ event_id: e.id })}, 'pending', ${e.created_at}, ${e.created_at})`.execute(db);
      }
      // A job of another kind, which the migration must leave alone.
      await sql`insert into outbox (id, account_id, mode, kind, payload, status, run_at, created_at)
        values ('job_other', ${ACCOUNT}, 'test', 'email.send', '{}', 'pending', ${TEMPLATE_CREATED}, ${TEMPLATE_CREATED})`.execute(db);
      // 0001 required the copy: a form without fields is refused before the migration.
      await assert.rejects(
        db.insertInto('forms').values({
          id: 'form_rejected', account_id: ACCOUNT, mode: 'test', status: 'draft', name: null, template_id: TEMPLATE_ID, fields: null, values: '{}', metadata: '{}',
          pdf_key: 'k', expires_in_days: 30, created_at: TEMPLATE_CREATED, updated_at: TEMPLATE_CREATED, sent_at: null, completed_at: null, expires_at: null,
        }).execute(),
        /not.null/i,
      );

      applied = await migrateToLatest(s.handle);
    });
    after(() => s.close());

    it('applies 0002 only (0001 was already there)', () => {
      assert.deepEqual(applied.slice(0, 1), ['0002_lean_form_writes']); // later migrations follow it
    });

    it('rewrites each event row: form_created_at is its form\'s created_at, form is the snapshot, data is gone', async () => {
      const rows = (await sql<Record<string, unknown>>`select * from events order by id`.execute(db)).rows;
      assert.deepEqual(rows.map((r) => Object.keys(r).sort()), rows.map(() => ['account_id', 'created_at', 'form', 'form_created_at', 'form_id', 'id', 'mode', 'published_at', 'seq', 'type']));
      // 0025 numbers the rows it finds in their old order (created_at, id), per partition on PostgreSQL.
      const inOrder = [...rows].sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)) || String(a.id).localeCompare(String(b.id)));
      for (const mode of ['test', 'live']) {
        const seqs = inOrder.filter((r) => r.mode === mode).map((r) => Number(r.seq));
        assert.deepEqual(seqs, [...seqs].sort((x, y) => x - y), `${mode}: seq follows (created_at, id)`);
        assert.equal(new Set(seqs).size, seqs.length);
      }
      // Never published (no publisher has run yet): all pending, as the pending-events index shows.
      assert.deepEqual(rows.map((r) => r.published_at), rows.map(() => null));
      const pending = await db.selectFrom('events').select('id').where('published_at', 'is', null).orderBy('created_at').execute();
      assert.deepEqual(pending.map((r) => r.id).sort(), rows.map((r) => r.id as string).sort());
      const byId = new Map(rows.map((r) => [r.id as string, r]));
      const cases: Array<[EventView, OldFormRow, OldFormRow]> = [[EVENT_CREATED, FORM_AT_CREATION, FORM_NOW], [EVENT_SENT, FORM_NOW, FORM_NOW], [EVENT_LIVE, FORM_LIVE, FORM_LIVE]];
      assert.equal(rows.length, cases.length);
      for (const [e, snapshotOf, form] of cases) {
        const row = byId.get(e.id)!;
        assert.ok(row, e.id);
        assert.equal(row.account_id, ACCOUNT);
        assert.equal(row.mode, e.mode);
        assert.equal(row.type, e.type);
        assert.equal(row.form_id, form.id);
        assert.equal(row.created_at, e.created_at);
        assert.equal(row.form_created_at, form.created_at);
        const snapshot = JSON.parse(row.form as string) as Record<string, unknown>;
        assert.deepEqual(
          Object.keys(snapshot).sort(),
          ['completed_at', 'created_at', 'expires_at', 'id', 'metadata', 'mode', 'name', 'sent_at', 'status', 'template_id', 'values'],
        );
        assert.deepEqual(snapshot, expectedSnapshot(snapshotOf));
      }
      // Spelled out once: null values are dropped, false/0/'' kept.
      assert.deepEqual(JSON.parse(byId.get(EVENT_CREATED.id)!.form as string).values, { full_name: 'Ada Lovelace', notes: 'line 1\nline 2', agree: true, newsletter: false, color: 'green', amount: 0, comment: '' });
    });

    it('drops the event.publish jobs (their events are pending instead) and keeps other jobs', async () => {
      const jobs = await db.selectFrom('outbox').select(['id', 'kind']).orderBy('id').execute();
      assert.deepEqual(jobs, [{ id: 'job_other', kind: 'email.send' }]);
    });

    it('keeps the old form row with its copied fields', async () => {
      const row = await db.selectFrom('forms').selectAll().where('id', '=', FORM_NOW.id).executeTakeFirstOrThrow();
      assert.equal(row.fields, JSON.stringify(FIELDS));
      assert.deepEqual(JSON.parse(row.values), FORM_NOW.values);
      assert.deepEqual(JSON.parse(row.metadata), FORM_NOW.metadata);
      assert.equal(row.status, 'sent');
      assert.equal(row.created_at, FORM_NOW.created_at);
      const count = await db.selectFrom('forms').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 2, 'no form lost in the rebuild');
    });

    it('getForm gives back the same Form JSON as before the migration', async () => {
      const text = (await getForm(deps(), TEST, FORM_NOW.id)).json;
      assert.deepEqual(JSON.parse(text), oldForm(FORM_NOW));
      assert.equal(text, JSON.stringify(oldForm(FORM_NOW)), 'byte for byte as 0001 served it');
      assert.deepEqual(JSON.parse((await getForm(deps(), LIVE, FORM_LIVE.id)).json), oldForm(FORM_LIVE));
    });

    it('listFormEvents gives back the same Event JSON as before the migration (newest first)', async () => {
      const text = (await listFormEvents(deps(), TEST, FORM_NOW.id, {})).json;
      // Byte for byte what 0001 stored as each event's body (the webhook body), not only the same values.
      assert.equal(text, `{"object":"list","data":[${JSON.stringify(EVENT_SENT)},${JSON.stringify(EVENT_CREATED)}],"has_more":false}`);
      const page = JSON.parse(text) as { object: string; data: EventView[]; has_more: boolean };
      assert.equal(page.object, 'list');
      assert.equal(page.has_more, false);
      assert.deepEqual(page.data[0], EVENT_SENT);
      assert.deepEqual(page.data, [EVENT_SENT, EVENT_CREATED]);
      // The creation event still shows the form as a draft, not as it is now.
      assert.equal(page.data[1]!.data.object.status, 'draft');

      const live = JSON.parse((await listFormEvents(deps(), LIVE, FORM_LIVE.id, {})).json) as { data: EventView[] };
      assert.deepEqual(live.data, [EVENT_LIVE]);
    });

    it('events stay in their partition and paginate after the migration', async () => {
      const first = JSON.parse((await listFormEvents(deps(), TEST, FORM_NOW.id, { limit: 1 })).json) as { data: EventView[]; has_more: boolean };
      assert.deepEqual(first, { object: 'list', data: [EVENT_SENT], has_more: true });
      const second = JSON.parse((await listFormEvents(deps(), TEST, FORM_NOW.id, { limit: 1, starting_after: EVENT_SENT.id })).json) as { data: EventView[]; has_more: boolean };
      assert.deepEqual(second, { object: 'list', data: [EVENT_CREATED], has_more: false });
      // The live form is not found from the test partition.
      await assert.rejects(listFormEvents(deps(), TEST, FORM_LIVE.id, {}), { code: 'resource_not_found' });
    });

    it('accepts a new form row without its own fields, which reads its template\'s fields', async () => {
      const created = '2026-01-05T00:00:00.000Z';
      await db
        .insertInto('forms')
        .values({
          id: 'form_migration0002_new', account_id: ACCOUNT, mode: 'test', status: 'draft', name: 'New', template_id: TEMPLATE_ID, fields: null,
          values: JSON.stringify({ full_name: 'Grace Hopper', agree: false }), metadata: '{}', pdf_key: 'templates/test.pdf', expires_in_days: 30,
          created_at: created, updated_at: created, sent_at: null, completed_at: null, expires_at: null,
        })
        .execute();
      const row = await db.selectFrom('forms').select('fields').where('id', '=', 'form_migration0002_new').executeTakeFirstOrThrow();
      assert.equal(row.fields, null);
      assert.deepEqual(
        JSON.parse((await getForm(deps(), TEST, 'form_migration0002_new')).json),
        oldForm({ ...FORM_LIVE, id: 'form_migration0002_new', mode: 'test', template_id: TEMPLATE_ID, name: 'New', values: { full_name: 'Grace Hopper', agree: false }, created_at: created }),
      );
    });

    it('the rebuilt forms table still refuses a form of an unknown account', async () => {
      await assert.rejects(
        db.insertInto('forms').values({
          id: 'form_orphan', account_id: 'acct_nobody', mode: 'test', status: 'draft', name: null, template_id: TEMPLATE_ID, fields: null, values: '{}', metadata: '{}',
          pdf_key: 'k', expires_in_days: 30, created_at: TEMPLATE_CREATED, updated_at: TEMPLATE_CREATED, sent_at: null, completed_at: null, expires_at: null,
        }).execute(),
        /foreign key/i,
      );
    });

    it('migrating again applies nothing', async () => {
      assert.deepEqual(await migrateToLatest(s.handle), []);
    });
  });
}
