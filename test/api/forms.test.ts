import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PdfRenderer } from '../../src/pdf/index.js';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';
import { assertPartitionIsolation } from '../shared/partition-isolation.js';

interface FormField { name: string; type: string; value: unknown; options?: string[] }
interface Form { id: string; object: string; status: string; name: string; template_id: string; mode: string; fields: FormField[]; metadata: Record<string, string>; recipients: unknown[]; sent_at: null; expires_at: null }
interface Event { id: string; type: string; data: { object: Form } }

for (const dialect of DIALECTS) {
  describe(`forms (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    let fields: FormField[];
    before(async () => {
      h = await createHarness(dialect);
      const m = multipart([{ name: 'file', value: fixture('openoffice_form_example.pdf'), filename: 'oo.pdf' }, { name: 'name', value: 'OpenOffice form' }]);
      const res = await h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
      assert.equal(res.status, 201, res.body);
      templateId = res.json<{ id: string }>().id;
      fields = res.json<{ fields: FormField[] }>().fields;
    });
    after(() => h.close());

    const create = (json: unknown, as = h.actors.aTest) => h.request({ method: 'POST', url: '/api/v1/forms', as, json });
    const byType = (t: string) => fields.find((f) => f.type === t)!;

    it('creates a draft with typed prefill, lists unmatched keys in request order', async () => {
      const text = byType('text');
      const box = byType('checkbox');
      const select = byType('select');
      const res = await create({
        template_id: templateId,
        name: 'Onboarding Łódź',
        prefill: { 'zzz-unknown': 'x', [text.name]: 'Łódź 日本語', [box.name]: true, 'Also Unknown': 1, [select.name]: select.options![1] },
        metadata: { customer: 'c_42' },
        expires_in_days: 14,
      });
      assert.equal(res.status, 201, res.body);
      assert.equal(res.headers['x-service-prefill-unmatched'], 'zzz-unknown,Also Unknown');
      const form = res.json<Form>();
      assert.match(form.id, /^form_[0-9A-Za-z]{24}$/);
      assert.equal(form.object, 'form');
      assert.equal(form.status, 'draft');
      assert.equal(form.mode, 'test');
      assert.equal(form.name, 'Onboarding Łódź');
      assert.equal(form.template_id, templateId);
      assert.deepEqual(form.metadata, { customer: 'c_42' });
      assert.deepEqual(form.recipients, []);
      assert.equal(form.sent_at, null);
      assert.equal(form.expires_at, null, 'expiry counts from the first send');
      const values = Object.fromEntries(form.fields.map((f) => [f.name, f.value]));
      assert.equal(values[text.name], 'Łódź 日本語');
      assert.equal(values[box.name], true);
      assert.equal(values[select.name], select.options![1]);
      assert.equal(form.fields.length, fields.length);
      assert.deepEqual((await h.request({ url: `/api/v1/forms/${form.id}`, as: h.actors.aTest })).json(), form);
    });

    it('accepts a JSON body sent with a charset parameter', async () => {
      const text = byType('text');
      const payload = JSON.stringify({ template_id: templateId, prefill: { [text.name]: 'Ελληνικά' } });
      const res = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload, headers: { 'content-type': 'application/json; charset=utf-8' } });
      assert.equal(res.status, 201, res.body);
      assert.equal(res.json<Form>().fields.find((f) => f.name === text.name)?.value, 'Ελληνικά');
    });

    it('no unmatched header when every key matches; each call makes a new form', async () => {
      const a = await create({ template_id: templateId, prefill: { [byType('text').name]: 'A' } });
      const b = await create({ template_id: templateId, prefill: { [byType('text').name]: 'A' } });
      assert.equal(a.headers['x-service-prefill-unmatched'], undefined);
      assert.notEqual(a.json<Form>().id, b.json<Form>().id);
    });

    it('unmatched keys that are not plain ASCII, or hold a comma, are percent-encoded in the header', async () => {
      const res = await create({ template_id: templateId, prefill: { 'Größe': 1, 'a,b': 2, plain: 3 } });
      assert.equal(res.status, 201);
      assert.equal(res.headers['x-service-prefill-unmatched'], 'Gr%C3%B6%C3%9Fe,a%2Cb,plain');
      const decoded = String(res.headers['x-service-prefill-unmatched']).split(',').map(decodeURIComponent);
      assert.deepEqual(decoded, ['Größe', 'a,b', 'plain']);
    });

    it('a key holding a lone surrogate is reported (as U+FFFD), and the form is created once', async () => {
      const before = (await h.request({ url: '/api/v1/forms?limit=100', as: h.actors.aTest })).json<{ data: Form[] }>().data.length;
      const res = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: `{"template_id":"${templateId}","prefill":{"\\ud800x":1}}`, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 201, res.body);
      assert.equal(res.headers['x-service-prefill-unmatched'], '%EF%BF%BDx');
      const after = (await h.request({ url: '/api/v1/forms?limit=100', as: h.actors.aTest })).json<{ data: Form[] }>().data.length;
      assert.equal(after, before + 1);
    });

    it('the unmatched header stops at 4,096 characters and ends with an encoded ellipsis', async () => {
      const prefill = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`unknown_key_${String(i).padStart(3, '0')}_${'k'.repeat(150)}`, i]));
      const res = await create({ template_id: templateId, prefill });
      assert.equal(res.status, 201, res.body);
      const header = String(res.headers['x-service-prefill-unmatched']);
      assert.ok(header.length <= 4096, `${header.length}`);
      assert.ok(header.endsWith(',%E2%80%A6'));
      const listed = header.split(',').slice(0, -1);
      assert.deepEqual(listed, Object.keys(prefill).slice(0, listed.length), 'the first keys, in request order');
      assert.ok(listed.length > 20);
      // Node's fetch reads it (a 20 KB header once made it throw).
      assert.ok((await fetchableHeader(header)).length > 0);
    });

    it('prefill values are checked against the field type', async () => {
      const cases: Array<[string, unknown]> = [
        [byType('checkbox').name, 'yes'],
        [byType('select').name, 'not an option'],
        [byType('radio').name, 42],
        [byType('text').name, { nested: true }],
      ];
      for (const [name, value] of cases) {
        const res = await create({ template_id: templateId, prefill: { [name]: value } });
        assert.equal(res.status, 400, `${name}=${JSON.stringify(value)}`);
        assert.equal(errorOf(res).code, 'parameter_invalid');
        assert.equal(errorOf(res).param, `prefill.${name}`);
      }
      const long = await create({ template_id: templateId, prefill: { x: 'y'.repeat(10_001) } });
      assert.deepEqual([long.status, errorOf(long).param], [400, 'prefill.x']);
      const many = await create({ template_id: templateId, prefill: Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`k${i}`, 'v'])) });
      assert.deepEqual([many.status, errorOf(many).code, errorOf(many).param], [400, 'parameter_invalid', 'prefill']);
      const meta = await create({ template_id: templateId, metadata: { n: 5 } });
      assert.deepEqual([meta.status, errorOf(meta).param], [400, 'metadata.n']);
      const days = await create({ template_id: templateId, expires_in_days: 366 });
      assert.deepEqual([days.status, errorOf(days).param], [400, 'expires_in_days']);
    });

    it("a template of another partition → 404 on template_id; nothing is created", async () => {
      const before = (await h.request({ url: '/api/v1/forms?limit=100', as: h.actors.bTest })).json<{ data: unknown[] }>().data.length;
      for (const as of [h.actors.bTest, h.actors.aLive]) {
        const res = await create({ template_id: templateId }, as);
        assert.equal(res.status, 404);
        assert.deepEqual([errorOf(res).code, errorOf(res).param], ['resource_not_found', 'template_id']);
      }
      assert.equal((await h.request({ url: '/api/v1/forms?limit=100', as: h.actors.bTest })).json<{ data: unknown[] }>().data.length, before);
    });

    it('form.created is in the audit log, written unpublished: the event row is its own outbox entry', async () => {
      const form = (await create({ template_id: templateId })).json<Form>();
      const events = (await h.request({ url: `/api/v1/forms/${form.id}/events`, as: h.actors.aTest })).json<{ data: Event[]; has_more: boolean }>();
      assert.equal(events.data.length, 1);
      assert.equal(events.data[0]!.type, 'form.created');
      assert.match(events.data[0]!.id, /^evt_/);
      assert.deepEqual(events.data[0]!.data.object, form);
      // What the webhook publisher will claim: pending events, oldest first, through the partial index.
      const pending = await h.deps.database.db.selectFrom('events').select(['id', 'account_id', 'mode', 'form_id']).where('published_at', 'is', null).orderBy('created_at').execute();
      assert.deepEqual(pending.find((e) => e.id === events.data[0]!.id), { id: events.data[0]!.id, account_id: h.actors.aTest.partition.accountId, mode: 'test', form_id: form.id });
      // No second record of the same fact: no job is written per event.
      assert.equal((await h.deps.database.db.selectFrom('outbox').select('id').execute()).length, 0);
    });

    it('when the transaction fails after the form row is written, neither the form nor its event exists', async () => {
      const count = async () => Promise.all(['forms', 'events'].map(async (t) => Number((await h.deps.database.db.selectFrom(t as 'forms').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)));
      const before = await count();
      // The form row goes in first; the event insert then fails, and the form must go with it.
      await h.deps.database.db.schema.alterTable('events').renameTo('events_away').execute();
      try {
        const res = await create({ template_id: templateId });
        assert.equal(res.status, 500);
        assert.equal(errorOf(res).code, 'internal_error');
      } finally {
        await h.deps.database.db.schema.alterTable('events_away').renameTo('events').execute();
      }
      assert.deepEqual(await count(), before);
      // And the store is fine afterwards.
      assert.equal((await create({ template_id: templateId })).status, 201);
    });

    it("a form created without a name takes its template's name", async () => {
      const res = await create({ template_id: templateId });
      assert.equal(res.json<Form>().name, 'OpenOffice form');
    });

    it('list: newest first, status filter, pagination', async () => {
      // Its own forms, so the test stands alone: created one after another, they list in reverse.
      const made: string[] = [];
      for (let i = 0; i < 4; i++) made.push((await create({ template_id: templateId, name: `list ${i}` })).json<Form>().id);
      const all = (await h.request({ url: '/api/v1/forms?limit=100', as: h.actors.aTest })).json<{ data: Form[]; has_more: boolean }>();
      assert.deepEqual(all.data.slice(0, 4).map((f) => f.id), [...made].reverse());
      const stamps = all.data.map((f) => (f as Form & { created_at: string }).created_at);
      assert.deepEqual(stamps, [...stamps].sort().reverse(), 'newest first throughout');
      const drafts = (await h.request({ url: '/api/v1/forms?status=draft&limit=100', as: h.actors.aTest })).json<{ data: Form[] }>();
      assert.equal(drafts.data.length, all.data.length);
      const signed = (await h.request({ url: '/api/v1/forms?status=signed', as: h.actors.aTest })).json<{ data: Form[] }>();
      assert.equal(signed.data.length, 0);
      const bad = await h.request({ url: '/api/v1/forms?status=done', as: h.actors.aTest });
      assert.deepEqual([bad.status, errorOf(bad).param], [400, 'status']);
      const p1 = (await h.request({ url: '/api/v1/forms?limit=2', as: h.actors.aTest })).json<{ data: Form[]; has_more: boolean }>();
      assert.deepEqual(p1.data.map((f) => f.id), all.data.slice(0, 2).map((f) => f.id));
      assert.equal(p1.has_more, true);
      const p2 = (await h.request({ url: `/api/v1/forms?limit=2&starting_after=${p1.data[1]!.id}`, as: h.actors.aTest })).json<{ data: Form[] }>();
      assert.deepEqual(p2.data.map((f) => f.id), all.data.slice(2, 4).map((f) => f.id));
    });

    it("another partition's form is not found in get, list, pdf and events", async () => {
      const form = (await create({ template_id: templateId })).json<Form>();
      await assertPartitionIsolation(h, { owner: h.actors.aTest, id: form.id, getUrl: `/api/v1/forms/${form.id}`, listUrl: '/api/v1/forms?limit=100' });
      for (const sub of ['pdf', 'events']) {
        const res = await h.request({ url: `/api/v1/forms/${form.id}/${sub}`, as: h.actors.bTest });
        assert.deepEqual([res.status, errorOf(res).code], [404, 'resource_not_found']);
      }
    });

    it('GET /forms/{id}/pdf renders the filled document lazily and caches it', async () => {
      const text = byType('text');
      const form = (await create({ template_id: templateId, prefill: { [text.name]: 'Ελληνικά Łódź' } })).json<Form>();
      // Renderings are stored by the hash of their inputs (the ETag), in the partition's folder.
      const renderDir = path.join(h.dataDir, 'files', 'renders', h.actors.aTest.partition.accountId, 'test');
      const allRenders = () => (fs.existsSync(renderDir) ? fs.readdirSync(renderDir).filter((f) => f.endsWith('.pdf')) : []);
      const before = new Set(allRenders());
      // This form's renderings: new files, less those of the other form this test renders.
      const others = new Set<string>();
      const renders = () => allRenders().filter((f) => !before.has(f) && !others.has(f));
      assert.equal(renders().length, 0, 'nothing rendered at create time');
      const res = await h.request({ url: `/api/v1/forms/${form.id}/pdf`, as: h.actors.aTest });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.equal(res.rawPayload.subarray(0, 5).toString(), '%PDF-');
      assert.equal(renders().length, 1);
      assert.ok(allRenders().includes(`${String(res.headers['etag']).slice(1, -1)}.pdf`), 'stored under its hash');
      const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-pdf-')), 'f.pdf');
      fs.writeFileSync(tmp, res.rawPayload);
      execFileSync('qpdf', ['--check', tmp]);
      assert.match(execFileSync('pdftotext', [tmp, '-']).toString(), /Ελληνικά Łódź/);
      const again = await h.request({ url: `/api/v1/forms/${form.id}/pdf`, as: h.actors.aTest });
      assert.ok(again.rawPayload.equals(res.rawPayload), 'served from the cache');
      assert.equal(renders().length, 1);
      // The entity tag names this version; a client holding it gets 304 and no body.
      const etag = String(res.headers['etag']);
      assert.match(etag, /^"[0-9a-f]{32}"$/);
      assert.equal(again.headers['etag'], etag);
      assert.equal(res.headers['cache-control'], 'private, no-cache');
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const cached = await h.request({ url: `/api/v1/forms/${form.id}/pdf`, as: h.actors.aTest, headers: { 'if-none-match': ifNoneMatch } });
        assert.equal(cached.status, 304, ifNoneMatch);
        assert.equal(cached.rawPayload.length, 0);
        assert.equal(cached.headers['etag'], etag);
      }
      const stale = await h.request({ url: `/api/v1/forms/${form.id}/pdf`, as: h.actors.aTest, headers: { 'if-none-match': '"0123456789abcdef0123456789abcdef"' } });
      assert.equal(stale.status, 200);
      assert.ok(stale.rawPayload.equals(res.rawPayload));
      // Another form, another tag; and another partition's form is not found, tag or not.
      const other = (await create({ template_id: templateId, prefill: { [text.name]: 'something else' } })).json<Form>();
      const otherPdf = await h.request({ url: `/api/v1/forms/${other.id}/pdf`, as: h.actors.aTest, headers: { 'if-none-match': etag } });
      assert.equal(otherPdf.status, 200);
      assert.notEqual(otherPdf.headers['etag'], etag);
      others.add(`${String(otherPdf.headers['etag']).slice(1, -1)}.pdf`);
      const foreign = await h.request({ url: `/api/v1/forms/${form.id}/pdf`, as: h.actors.bTest, headers: { 'if-none-match': etag } });
      assert.equal(foreign.status, 404);
      // A new renderer version renders anew rather than serving what the old one cached.
      const domain = h.deps.domain as { pdfRenderer: PdfRenderer };
      const current = domain.pdfRenderer;
      domain.pdfRenderer = { ...current, version: `${current.version}-next` };
      try {
        const fresh = await h.request({ url: `/api/v1/forms/${form.id}/pdf`, as: h.actors.aTest });
        assert.equal(fresh.status, 200);
        assert.equal(renders().length, 2);
      } finally {
        domain.pdfRenderer = current;
      }
      fs.rmSync(path.dirname(tmp), { recursive: true, force: true });
    });
  });
}

/** A header value as a real HTTP client receives it (Node's fetch refuses oversized headers). */
async function fetchableHeader(value: string): Promise<string> {
  const http = await import('node:http');
  const server = http.createServer((_req, res) => res.writeHead(200, { 'x-test': value }).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/`);
    return res.headers.get('x-test') ?? '';
  } finally {
    server.close();
  }
}
