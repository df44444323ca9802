import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { DIALECTS, type Harness } from '../harness.js';
import { sealedPdfOf } from '../evidence/support.js';
import { multipart } from '../shared/multipart.js';
import { harnessWithWorker } from '../shared/worker-harness.js';
import { SIGN_HEADERS, strokePng } from './support.js';

// Conditional fields and formulas end to end (issue 41): the template's rules refused on upload with
// the contract's errors, formulas computed from prefill and again at signing, a submission checked
// against the conditions as the server computes them (a hidden field is not required and its value
// is dropped; a computed field cannot be sent), and the sealed PDF showing the computed value and
// leaving the hidden field blank (pdftotext).

const box = (y: number) => ({ page: 1, x: 72, y, width: 240, height: 22 });
const FIELDS = [
  { name: 'has_pet', type: 'checkbox', label: 'I have a pet', ...box(100), width: 16, height: 16 },
  { name: 'pet_name', type: 'text', label: 'Pet name', required: true, condition: { field: 'has_pet', equals: true }, ...box(140) },
  { name: 'plan', type: 'select', label: 'Plan', options: ['basic', 'pro', 'team'], ...box(180) },
  { name: 'seats', type: 'number', label: 'Seats', condition: { field: 'plan', one_of: ['pro', 'team'] }, ...box(220) },
  { name: 'qty', type: 'number', label: 'Quantity', ...box(260) },
  { name: 'price', type: 'number', label: 'Unit price', ...box(300) },
  { name: 'total', type: 'number', label: 'Total', required: true, formula: 'round(qty * price * 1.0825, 2)', ...box(340) },
  { name: 'signature', type: 'signature', required: true, ...box(400), height: 50 },
];

async function flatPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText('Order form', { x: 72, y: 720, size: 20, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

async function upload(h: Harness, fields: unknown[]) {
  const m = multipart([{ name: 'name', value: 'Order form' }, { name: 'fields', value: JSON.stringify(fields) }, { name: 'file', value: await flatPdf(), filename: 'order.pdf' }]);
  return h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
}

for (const dialect of DIALECTS) {
  describe(`conditional fields and formulas (${dialect})`, () => {
    const harness = harnessWithWorker(dialect);

    it('refuses a template whose formula or condition reads a missing field or itself, or forms a cycle, naming the field', async () => {
      const h = harness();
      const cases: Array<[unknown[], string, string, RegExp]> = [
        [[...FIELDS.slice(0, 6), { ...FIELDS[6], formula: 'qty * cost' }], 'template_invalid', 'fields[6].formula', /reads 'cost', which is not a field/],
        [[{ name: 'a', type: 'number', formula: 'b + 1', ...box(10) }, { name: 'b', type: 'number', formula: 'a * 2', ...box(40) }], 'template_invalid', 'fields[0]', /depends on itself: a → b → a/],
        [[{ name: 'a', type: 'text', formula: '1', ...box(10) }], 'parameter_invalid', 'fields[0].formula', /Only number fields/],
        [[{ name: 'a', type: 'text', condition: { field: 'b', like: 1 }, ...box(10) }], 'parameter_invalid', 'fields[0].condition', /not a condition test/],
      ];
      for (const [fields, code, param, message] of cases) {
        const res = await upload(h, fields);
        assert.equal(res.status, 400, res.body);
        const error = res.json<{ error: { code: string; param: string; message: string } }>().error;
        assert.equal(error.code, code);
        assert.equal(error.param, param);
        assert.match(error.message, message);
      }
    });

    it('computes formulas from prefill, checks submissions by the conditions, and seals the computed value with hidden fields blank', async () => {
      const h = harness();
      const as = h.actors.aTest;
      const uploaded = await upload(h, FIELDS);
      assert.equal(uploaded.status, 201, uploaded.body);
      const template = uploaded.json<{ id: string; fields: Array<{ name: string; formula?: string; condition?: unknown }> }>();
      assert.equal(template.fields.find((f) => f.name === 'total')?.formula, 'round(qty * price * 1.0825, 2)');
      assert.deepEqual(template.fields.find((f) => f.name === 'pet_name')?.condition, { field: 'has_pet', equals: true });

      const refused = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: template.id, prefill: { total: 5 } } });
      assert.equal(refused.status, 400);
      assert.match(refused.json<{ error: { message: string } }>().error.message, /computed from other fields/);

      // Prefilled quantity and price: the total is computed at once, in decimal (3 × 19.99 × 1.0825).
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: template.id, prefill: { qty: 3, price: '19.99', pet_name: 'Rex' } } });
      assert.equal(created.status, 201, created.body);
      const form = created.json<{ id: string; fields: Array<{ name: string; value: unknown }> }>();
      const valueOf = (name: string) => form.fields.find((f) => f.name === name)?.value;
      assert.equal(valueOf('total'), '64.92');
      assert.equal(valueOf('pet_name'), null, 'prefill of a field hidden by its condition is dropped');
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as, json: { recipients: [{ email: 'buyer@example.com', channel: 'email', name: 'Buyer' }] } });
      assert.equal(sent.status, 200, sent.body);
      const token = /\/sign\/([A-Za-z0-9_-]{43})$/.exec(sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url)![1]!;

      // The page ships the evaluator only to forms that need it, starts the hidden field hidden and the total read-only.
      const page = await h.app.inject({ method: 'GET', url: `/sign/${token}` });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /field-logic/);
      assert.match(page.body, /<div class="ctl-wrap" data-wrap="field-1" hidden>/);
      assert.match(page.body, /data-field="total"[^>]* readonly/);

      const post = (values: Record<string, unknown>) => h.app.inject({
        method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ values, consent: true }),
      });
      const signature = { image: strokePng(), method: 'drawn' };
      // A computed field cannot be sent; a pet ticked makes its name required.
      let res = await post({ total: 1, signature });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json<{ error: { param: string } }>().error.param, 'values.total');
      res = await post({ has_pet: true, signature });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json<{ error: { code: string; param: string } }>().error.code, 'parameter_missing');
      assert.equal(res.json<{ error: { param: string } }>().error.param, 'values.pet_name');
      // Unticked, the pet's name is not required and a name sent anyway is dropped; seats hide with the basic plan.
      res = await post({ has_pet: false, pet_name: 'Shadowfax', plan: 'basic', seats: 12, qty: 4, signature });
      assert.equal(res.statusCode, 200, res.body);

      const pdf = await sealedPdfOf(h, form.id);
      const stored = (await h.request({ url: `/api/v1/forms/${form.id}`, as })).json<{ fields: Array<{ name: string; value: unknown }> }>();
      const finalValue = (name: string) => stored.fields.find((f) => f.name === name)?.value;
      assert.equal(finalValue('total'), '86.56', '4 × 19.99 × 1.0825, recomputed at signing');
      assert.equal(finalValue('pet_name'), null);
      assert.equal(finalValue('seats'), null);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-logic-'));
      try {
        const file = path.join(dir, 'signed.pdf');
        fs.writeFileSync(file, pdf);
        const text = spawnSync('pdftotext', ['-f', '1', '-l', '1', file, '-'], { encoding: 'utf8' }).stdout;
        assert.match(text, /86\.56/);
        assert.doesNotMatch(text, /Shadowfax/);
        assert.doesNotMatch(text, /\b12\b/);
        assert.equal(spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout.includes('Signature is Valid'), true);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
