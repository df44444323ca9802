import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PDFDocument, PDFTextField } from '@cantoo/pdf-lib';
import type { DomainDeps } from '../../src/domain/context.js';
import { createForm } from '../../src/domain/forms/create-form.js';
import { getForm } from '../../src/domain/forms/read-forms.js';
import { deleteTemplate } from '../../src/domain/templates/delete-template.js';
import { getTemplate } from '../../src/domain/templates/read-templates.js';
import { TEMPLATE_FRESH_MS, TemplateCache } from '../../src/domain/templates/template-cache.js';
import { NO_FIELDS_EDITED, NO_FIELDS_UPLOADED } from '../../src/domain/templates/template-warnings.js';
import { updateTemplate } from '../../src/domain/templates/update-template.js';
import type { Clock } from '../../src/lib/clock.js';
import { DIALECTS, createHarness, errorOf, type Harness, type TestResponse } from '../harness.js';
import { fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';
import { SIGN_HEADERS, strokePng } from '../signing/support.js';

// Templates become editable (PATCH name/fields, DELETE) while every form keeps the fields it was made
// with: its JSON, its rendered PDF (same ETag, same AcroForm values), its signing page and its sealed
// document. Fields the source PDF has no widget for (a text box or a signature drawn on a page) are
// drawn into their rectangles and sealed. The template cache stays right in this process at once and
// in another process (a second cache over the same store) within TEMPLATE_FRESH_MS.

interface Field { name: string; type: string; required: boolean; signer: number; page: number; x: number; y: number; width: number; height: number; options?: string[]; label?: string; multiline?: boolean; max_length?: number }
interface Template { object: string; id: string; name: string; page_count: number; fields: Field[]; signer_count: number; warnings: string[]; created_at: string; updated_at: string }
interface FormField extends Field { value: unknown }
interface Form { id: string; template_id: string | null; fields: FormField[]; status: string }

const FIXTURE = 'openoffice_form_example.pdf';

/** A box drawn on page 1 below the openoffice form's own fields, where the PDF has no widget. */
const NOTE: Field = { name: 'drawn_note', type: 'text', required: false, signer: 1, page: 1, x: 60, y: 700, width: 300, height: 22 };
const SIGNATURE: Field = { name: 'drawn_signature', type: 'signature', required: true, signer: 1, page: 1, x: 60, y: 740, width: 200, height: 50 };

function fieldDefs(fields: FormField[]): Field[] {
  return fields.map(({ value: _value, ...def }) => def);
}

function tmpFile(bytes: Uint8Array, name: string): { file: string; done(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-edit-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return { file, done: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

function pdfText(bytes: Uint8Array): string {
  const t = tmpFile(bytes, 'doc.pdf');
  try {
    return execFileSync('pdftotext', ['-layout', t.file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } finally {
    t.done();
  }
}

/** The AcroForm text values of a PDF, by field name. */
async function acroTexts(bytes: Uint8Array): Promise<Map<string, string | undefined>> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const out = new Map<string, string | undefined>();
  for (const f of doc.getForm().getFields()) if (f instanceof PDFTextField) out.set(f.getName(), f.getText());
  return out;
}

/** A clock the test moves by hand: the second process's. */
function manualClock(start = Date.now()): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => new Date(now), advance: (ms) => { now += ms; } };
}

for (const dialect of DIALECTS) {
  describe(`template edits and deletes (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect, { env: { BASE_URL: 'http://localhost:3000' } });
    });
    after(() => h.close());

    async function upload(as = h.actors.aTest): Promise<Template> {
      const m = multipart([{ name: 'file', value: fixture(FIXTURE), filename: FIXTURE }]);
      const res = await h.request({ method: 'POST', url: '/api/v1/templates', as, payload: m.payload, headers: m.headers });
      assert.equal(res.status, 201, res.body);
      return res.json<Template>();
    }
    const patch = (id: string, json: unknown, as = h.actors.aTest): Promise<TestResponse> => h.request({ method: 'PATCH', url: `/api/v1/templates/${id}`, as, json });
    const del = (id: string, as = h.actors.aTest): Promise<TestResponse> => h.request({ method: 'DELETE', url: `/api/v1/templates/${id}`, as });
    const get = (id: string, as = h.actors.aTest): Promise<TestResponse> => h.request({ url: `/api/v1/templates/${id}`, as });
    async function newForm(templateId: string, prefill: Record<string, unknown>): Promise<{ form: Form; unmatched: string | undefined }> {
      const res = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId, prefill } });
      assert.equal(res.status, 201, res.body);
      const header = res.headers['x-service-prefill-unmatched'];
      return { form: res.json<Form>(), unmatched: typeof header === 'string' ? header : undefined };
    }
    const formOf = async (id: string): Promise<Form> => (await h.request({ url: `/api/v1/forms/${id}`, as: h.actors.aTest })).json<Form>();
    async function formPdf(id: string): Promise<{ pdf: Buffer; etag: string }> {
      const res = await h.request({ url: `/api/v1/forms/${id}/pdf`, as: h.actors.aTest });
      assert.equal(res.status, 200, res.body.slice(0, 300));
      return { pdf: res.rawPayload, etag: String(res.headers['etag']) };
    }
    function textField(t: Template): Field {
      const f = t.fields.find((x) => x.type === 'text');
      assert.ok(f, 'the fixture has a text field');
      return f;
    }

    it('PATCH name renames and keeps the fields; GET and the list show it', async () => {
      const t = await upload();
      const res = await patch(t.id, { name: '  Renamed contract  ' });
      assert.equal(res.status, 200, res.body);
      const after = res.json<Template>();
      assert.equal(after.name, 'Renamed contract');
      assert.deepEqual(after.fields, t.fields);
      assert.equal(after.created_at, t.created_at);
      assert.ok(after.updated_at >= t.updated_at);
      assert.deepEqual((await get(t.id)).json(), after);
      const list = (await h.request({ url: '/api/v1/templates?limit=100', as: h.actors.aTest })).json<{ data: Template[] }>();
      assert.equal(list.data.find((x) => x.id === t.id)?.name, 'Renamed contract');
      // An empty body changes nothing.
      const same = await patch(t.id, {});
      assert.equal(same.status, 200);
      assert.deepEqual(same.json(), after);
    });

    it("the upload's \"no form fields\" warning describes the current fields: gone once fields are saved, back (in the edit's words) when they are all removed", async () => {
      const contract = fs.readFileSync(fileURLToPath(new URL('../../examples/contract.pdf', import.meta.url)));
      const m = multipart([{ name: 'file', value: contract, filename: 'contract.pdf' }]);
      const res = await h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
      assert.equal(res.status, 201, res.body);
      const t = res.json<Template>();
      assert.deepEqual([t.fields, t.warnings], [[], [NO_FIELDS_UPLOADED]]);

      const withFields = await patch(t.id, { fields: [NOTE] });
      assert.equal(withFields.status, 200, withFields.body);
      assert.deepEqual(withFields.json<Template>().warnings, []);
      assert.deepEqual((await get(t.id)).json<Template>().warnings, [], 'GET shows the current warnings');
      const list = (await h.request({ url: '/api/v1/templates?limit=100', as: h.actors.aTest })).json<{ data: Template[] }>();
      assert.deepEqual(list.data.find((x) => x.id === t.id)?.warnings, [], 'and so does the list');
      // A rename alone leaves the warnings as they are.
      assert.deepEqual((await patch(t.id, { name: 'Contract' })).json<Template>().warnings, []);

      const emptied = await patch(t.id, { fields: [] });
      assert.equal(emptied.status, 200, emptied.body);
      assert.deepEqual(emptied.json<Template>().warnings, [NO_FIELDS_EDITED]);
      assert.match(NO_FIELDS_EDITED, /builder/);
      assert.deepEqual((await get(t.id)).json<Template>().warnings, [NO_FIELDS_EDITED]);
    });

    it('PATCH fields replaces the list (defaults filled); a form made before keeps its fields, its PDF and its ETag', async () => {
      const t = await upload();
      const kept = textField(t);
      const before = await newForm(t.id, { [kept.name]: 'Ada Lovelace' });
      const beforePdf = await formPdf(before.form.id);
      assert.equal((await acroTexts(beforePdf.pdf)).get(kept.name), 'Ada Lovelace');

      // The new list: every field but the one the old form filled, plus a text box and a signature the
      // PDF has no widgets for, given with the import's defaults left out.
      const others = t.fields.filter((f) => f.name !== kept.name);
      const res = await patch(t.id, { fields: [...others, { name: NOTE.name, type: 'text', x: NOTE.x, y: NOTE.y, width: NOTE.width, height: NOTE.height }, SIGNATURE] });
      assert.equal(res.status, 200, res.body);
      const edited = res.json<Template>();
      assert.deepEqual(edited.fields, [...others, NOTE, SIGNATURE]);
      assert.equal(edited.signer_count, 1);
      assert.deepEqual((await get(t.id)).json<Template>().fields, edited.fields);

      // The old form: the same fields, value, PDF version and AcroForm value as before the edit.
      const oldForm = await formOf(before.form.id);
      assert.deepEqual(fieldDefs(oldForm.fields), t.fields);
      assert.equal(oldForm.fields.find((f) => f.name === kept.name)?.value, 'Ada Lovelace');
      const oldPdf = await formPdf(before.form.id);
      assert.equal(oldPdf.etag, beforePdf.etag, 'the same fields and values: the same document version');
      assert.equal((await acroTexts(oldPdf.pdf)).get(kept.name), 'Ada Lovelace');
      assert.ok(!pdfText(oldPdf.pdf).includes('Drawn on the page'));
      // The forms list (a batch read of template versions) agrees.
      const listed = (await h.request({ url: '/api/v1/forms?limit=100', as: h.actors.aTest })).json<{ data: Form[] }>().data.find((f) => f.id === before.form.id);
      assert.deepEqual(listed && fieldDefs(listed.fields), t.fields);

      // A form made now gets the new fields: the old one's name is unmatched, the drawn box is filled.
      const now = await newForm(t.id, { [kept.name]: 'ignored', [NOTE.name]: 'Drawn on the page' });
      assert.equal(now.unmatched, kept.name);
      assert.deepEqual(fieldDefs(now.form.fields), edited.fields);
      const newPdf = await formPdf(now.form.id);
      assert.notEqual(newPdf.etag, beforePdf.etag);
      assert.match(pdfText(newPdf.pdf), /Drawn on the page/, 'a field without a widget is drawn into its rectangle');
      const texts = await acroTexts(newPdf.pdf);
      assert.ok(!texts.has(NOTE.name), 'drawn, not added to the AcroForm');
      assert.equal(texts.get(kept.name), (await acroTexts(fixture(FIXTURE))).get(kept.name), 'the removed field is left as the PDF has it');

      // Another edit: both earlier forms still read their own versions.
      assert.equal((await patch(t.id, { fields: [NOTE] })).status, 200);
      assert.deepEqual(fieldDefs((await formOf(before.form.id)).fields), t.fields);
      assert.deepEqual(fieldDefs((await formOf(now.form.id)).fields), edited.fields);
      assert.equal((await formPdf(now.form.id)).etag, newPdf.etag);
    });

    it('an AcroForm field given options or a type its widget cannot take is drawn instead, not a failed render', async () => {
      const t = await upload();
      const radio = t.fields.find((f) => f.type === 'radio');
      const text = textField(t);
      assert.ok(radio, 'the fixture has a radio group');
      const fields = t.fields.map((f) => {
        if (f.name === radio.name) return { ...f, options: ['Yes please', 'No thanks'] };
        if (f.name === text.name) return { ...f, type: 'checkbox' };
        return f;
      });
      assert.equal((await patch(t.id, { fields })).status, 200);
      const made = await newForm(t.id, { [radio.name]: 'No thanks' });
      const res = await h.request({ url: `/api/v1/forms/${made.form.id}/pdf`, as: h.actors.aTest });
      assert.equal(res.status, 200, res.body.slice(0, 300));
      assert.match(pdfText(res.rawPayload), /No thanks/);
    });

    it('concurrent field edits each make their own version; forms made between them keep theirs', async () => {
      const t = await upload();
      const variant = (i: number): Field => ({ ...NOTE, name: `note_${i}` });
      const made: Array<{ form: Form; fields: Field[] }> = [];
      await Promise.all(Array.from({ length: 6 }, async (_, i) => {
        const res = await patch(t.id, { fields: [variant(i)] });
        assert.equal(res.status, 200, res.body);
        const { form } = await newForm(t.id, {});
        made.push({ form, fields: fieldDefs(form.fields) });
      }));
      const final = (await get(t.id)).json<Template>().fields;
      assert.equal(final.length, 1);
      assert.match(final[0]!.name, /^note_[0-5]$/);
      // Each form reads back exactly the fields it was created with, whichever edit came last.
      for (const m of made) assert.deepEqual(fieldDefs((await formOf(m.form.id)).fields), m.fields);
    });

    it('bad fields and names answer 400 with the contract codes and param, and change nothing', async () => {
      const t = await upload();
      const f0 = { name: 'a', type: 'text', x: 1, y: 1, width: 10, height: 10 };
      const cases: Array<[unknown, string, string]> = [
        [{ fields: 'nope' }, 'parameter_invalid', 'fields'],
        [{ fields: [{ ...f0, page: t.page_count + 1 }] }, 'parameter_invalid', 'fields[0].page'],
        [{ fields: [f0, { ...f0 }] }, 'parameter_invalid', 'fields[1].name'],
        [{ fields: [{ ...f0, colour: 'red' }] }, 'parameter_unknown', 'fields[0].colour'],
        [{ fields: [{ name: 'a', type: 'text', y: 1, width: 10, height: 10 }] }, 'parameter_missing', 'fields[0].x'],
        [{ fields: [{ ...f0, type: 'select' }] }, 'parameter_invalid', 'fields[0].options'],
        [{ fields: [{ ...f0, options: ['x'] }] }, 'parameter_invalid', 'fields[0].options'],
        [{ fields: [{ ...f0, type: 'stamp' }] }, 'parameter_invalid', 'fields[0].type'],
        [{ fields: [{ ...f0, width: -1 }] }, 'parameter_invalid', 'fields[0].width'],
        [{ name: '' }, 'parameter_invalid', 'name'],
        [{ name: '   ' }, 'parameter_invalid', 'name'],
        [{ colour: 'red' }, 'parameter_unknown', 'colour'],
      ];
      for (const [body, code, param] of cases) {
        const res = await patch(t.id, body);
        assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.body}`);
        const e = errorOf(res);
        assert.equal(e.code, code, JSON.stringify(body));
        assert.equal(e.param, param, JSON.stringify(body));
        assert.equal(e.type, 'invalid_request_error');
      }
      const notJson = await h.request({ method: 'PATCH', url: `/api/v1/templates/${t.id}`, as: h.actors.aTest, payload: '{', headers: { 'content-type': 'application/json' } });
      assert.equal(errorOf(notJson).code, 'invalid_json');
      assert.deepEqual((await get(t.id)).json(), t, 'nothing changed');
    });

    it('the use case the dashboard calls checks the same rules without the HTTP schema', async () => {
      const t = await upload();
      const p = h.actors.aTest.partition;
      await assert.rejects(updateTemplate(h.deps.domain, p, t.id, { fields: [{ name: 'a', type: 'text', page: 9, x: 1, y: 1, width: 1, height: 1 }] }), { code: 'parameter_invalid', param: 'fields[0].page' });
      await assert.rejects(updateTemplate(h.deps.domain, p, t.id, { name: 42 as unknown as string }), { code: 'parameter_invalid', param: 'name' });
      await assert.rejects(updateTemplate(h.deps.domain, p, t.id, { colour: 'red' } as never), { code: 'parameter_unknown', param: 'colour' });
      await assert.rejects(updateTemplate(h.deps.domain, p, t.id, null as never), { code: 'parameter_invalid' });
      await assert.rejects(updateTemplate(h.deps.domain, p, t.id, { fields: 'x' }), { code: 'parameter_invalid', param: 'fields' });
      const ok = await updateTemplate(h.deps.domain, p, t.id, { name: 'From the dashboard', fields: [NOTE] });
      assert.equal(ok.name, 'From the dashboard');
      assert.deepEqual(ok.fields, [NOTE]);
      assert.deepEqual(await deleteTemplate(h.deps.domain, p, t.id), { object: 'template', id: t.id, deleted: true });
      await assert.rejects(deleteTemplate(h.deps.domain, p, t.id), { code: 'resource_not_found' });
    });

    it('DELETE: the template is gone for the API, and a form made from it still renders with its fields', async () => {
      const t = await upload();
      const kept = textField(t);
      const made = await newForm(t.id, { [kept.name]: 'Grace Hopper' });
      const pdfBefore = await formPdf(made.form.id);

      const res = await del(t.id);
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(res.json(), { object: 'template', id: t.id, deleted: true });
      assert.equal(errorOf(await get(t.id)).code, 'resource_not_found');
      assert.equal((await get(t.id)).status, 404);
      const list = (await h.request({ url: '/api/v1/templates?limit=100', as: h.actors.aTest })).json<{ data: Template[] }>();
      assert.ok(!list.data.some((x) => x.id === t.id));
      assert.equal((await patch(t.id, { name: 'Back?' })).status, 404, 'a PATCH of a deleted template is 404');
      assert.equal((await del(t.id)).status, 404, 'deleting twice is 404');
      const create = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: t.id } });
      assert.equal(create.status, 404);
      assert.equal(errorOf(create).param, 'template_id');

      const form = await formOf(made.form.id);
      assert.equal(form.template_id, t.id);
      assert.deepEqual(fieldDefs(form.fields), t.fields);
      const pdfAfter = await formPdf(made.form.id);
      assert.equal(pdfAfter.etag, pdfBefore.etag);
      assert.equal((await acroTexts(pdfAfter.pdf)).get(kept.name), 'Grace Hopper');
      // A fresh process (an empty cache) reads the deleted template's fields for the form too.
      const fresh: DomainDeps = { ...h.deps.domain, templateCache: new TemplateCache(1 << 20) };
      assert.deepEqual(fieldDefs((JSON.parse((await getForm(fresh, h.actors.aTest.partition, made.form.id)).json) as Form).fields), t.fields);
    });

    it("another partition's template: PATCH and DELETE answer 404 and change nothing", async () => {
      const t = await upload();
      for (const other of [h.actors.bTest, h.actors.aLive]) {
        const p = await patch(t.id, { name: 'Hijacked', fields: [] }, other);
        assert.equal(p.status, 404, p.body);
        assert.equal(errorOf(p).code, 'resource_not_found');
        const d = await del(t.id, other);
        assert.equal(d.status, 404, d.body);
      }
      assert.equal((await patch('tmpl_doesnotexist', { name: 'x' })).status, 404);
      assert.deepEqual((await get(t.id)).json(), t);
    });

    it('a second process sees edits and deletes within TEMPLATE_FRESH_MS, and reads forms exactly at once', async () => {
      const t = await upload();
      const p = h.actors.aTest.partition;
      const clock = manualClock();
      // Another process: its own template cache and clock over the same store.
      const other: DomainDeps = { ...h.deps.domain, templateCache: new TemplateCache(1 << 20), clock };
      const read = async (): Promise<Template> => JSON.parse((await getTemplate(other, p, t.id)).json) as Template;
      assert.equal((await read()).name, t.name);

      assert.equal((await patch(t.id, { name: 'Edited elsewhere', fields: [NOTE] })).status, 200);
      // This process sees its own edit at once.
      assert.deepEqual((await get(t.id)).json<Template>().fields, [NOTE]);
      // Within the window the other process may still answer from its cache, and a form it makes
      // then is made from the version it saw: consistent, as if made just before the edit.
      const stale = await read();
      assert.equal(stale.name, t.name);
      const made = await createForm(other, p, { template_id: t.id, prefill: { [textField(t).name]: 'x' } });
      assert.deepEqual(made.unmatched, []);
      assert.deepEqual(fieldDefs((await formOf(JSON.parse(made.form.json).id as string)).fields), t.fields);
      // A form of the new version is read right by the other process at once (versions never change).
      const mine = await newForm(t.id, {});
      assert.deepEqual(fieldDefs((JSON.parse((await getForm(other, p, mine.form.id)).json) as Form).fields), [NOTE]);
      // Past the window the other process reads the template again.
      clock.advance(TEMPLATE_FRESH_MS + 1);
      const fresh = await read();
      assert.equal(fresh.name, 'Edited elsewhere');
      assert.deepEqual(fresh.fields, [NOTE]);

      assert.equal((await del(t.id)).status, 200);
      clock.advance(TEMPLATE_FRESH_MS + 1);
      await assert.rejects(getTemplate(other, p, t.id), { code: 'resource_not_found' });
      await assert.rejects(createForm(other, p, { template_id: t.id }), { code: 'resource_not_found' });
    });

    describe('signing and sealing after edits', () => {
      before(() => h.deps.worker.start());
      after(() => h.deps.worker.stop());

      async function sendOne(formId: string): Promise<string> {
        const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as: h.actors.aTest, json: { recipients: [{ email: 'signer@example.com', channel: 'email', name: 'Signer One' }] } });
        assert.equal(sent.status, 200, sent.body);
        const url = sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url;
        const token = /\/sign\/([A-Za-z0-9_-]{43})$/.exec(url)?.[1];
        assert.ok(token, url);
        return token;
      }
      const sign = (token: string, values: Record<string, unknown>) =>
        h.app.inject({ method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ values, consent: true }) });
      async function sealed(formId: string): Promise<Buffer> {
        const deadline = Date.now() + 90_000;
        while (Date.now() < deadline) {
          if ((await formOf(formId)).status === 'signed') break;
          await new Promise((r) => setTimeout(r, 100));
        }
        const res = await h.request({ url: `/api/v1/forms/${formId}/signed-pdf?format=base64`, as: h.actors.aTest });
        assert.equal(res.status, 200, `sealed within 90 s: ${res.body.slice(0, 200)}`);
        return Buffer.from(res.json<{ data: string }>().data, 'base64');
      }
      function pdfsig(pdf: Uint8Array): string {
        const t = tmpFile(pdf, 'signed.pdf');
        try {
          const run = spawnSync('pdfsig', [t.file], { encoding: 'utf8' });
          return `${run.stdout}${run.stderr}`;
        } finally {
          t.done();
        }
      }
      function imagesOnPage1(pdf: Uint8Array): number {
        const t = tmpFile(pdf, 'signed.pdf');
        try {
          const out = execFileSync('pdfimages', ['-list', '-f', '1', '-l', '1', t.file], { encoding: 'utf8' });
          return out.split('\n').slice(2).filter((l) => l.trim() !== '').length;
        } finally {
          t.done();
        }
      }

      it('a form made before an edit and a delete is signed and sealed with its own fields; a drawn signature field is stamped and sealed', async () => {
        const t = await upload();
        const kept = textField(t);
        const old = await newForm(t.id, { [kept.name]: 'Old Version Value' });
        const imagesBefore = imagesOnPage1(fixture(FIXTURE));
        assert.equal((await patch(t.id, { fields: [NOTE, SIGNATURE] })).status, 200);
        const edited = await newForm(t.id, { [NOTE.name]: 'Drawn and sealed' });
        assert.equal((await del(t.id)).status, 200);

        // The old form's signer has no signature field: they sign on an added page, and may not fill
        // the new version's fields.
        const oldToken = await sendOne(old.form.id);
        const wrong = await sign(oldToken, { [SIGNATURE.name]: { image: strokePng(), method: 'drawn' } });
        assert.equal(wrong.statusCode, 400, wrong.body);
        const okOld = await sign(oldToken, { _signature: { image: strokePng(), method: 'drawn' } });
        assert.equal(okOld.statusCode, 200, okOld.body);

        // The new form's signer fills the drawn signature box (required) on page 1.
        const newToken = await sendOne(edited.form.id);
        const missing = await sign(newToken, {});
        assert.equal(missing.statusCode, 400, 'the drawn signature field is required');
        const okNew = await sign(newToken, { [SIGNATURE.name]: { image: strokePng(), method: 'drawn' } });
        assert.equal(okNew.statusCode, 200, okNew.body);

        const oldSealed = await sealed(old.form.id);
        assert.match(pdfsig(oldSealed), /Signature is Valid\./);
        const oldText = pdfText(oldSealed);
        assert.match(oldText, /Old Version Value/);
        assert.ok(!oldText.includes('Drawn and sealed'));

        const newSealed = await sealed(edited.form.id);
        assert.match(pdfsig(newSealed), /Signature is Valid\./);
        assert.match(pdfText(newSealed), /Drawn and sealed/);
        assert.ok(!pdfText(newSealed).includes('Old Version Value'));
        assert.ok(imagesOnPage1(newSealed) > imagesBefore, 'the signature image is drawn on page 1, where the field is');
      });
    });
  });
}
