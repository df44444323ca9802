import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { sealedPdfOf } from '../evidence/support.js';
import { openBrowserHarness, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { multipart } from '../shared/multipart.js';
import { assertAxeClean, waitForDocument } from './page-checks.js';
import { drawSignature } from './draw-signature.js';
import { SIGN_HEADERS, strokePng } from './support.js';

// Issue 41's "done when", in Chromium at 1280 and 390 px: a Word file with text tags becomes a
// template (its fields where the tags were), the builder's kind of edit adds a condition, a formula
// and an attachment field, and a form from it is signed: the attachment field appears when its
// condition comes true, a photo is attached through the page's file input, the formula's deposit
// follows the months typed; the other signers sign; the sealed PDF shows the computed deposit and the
// attached image's page after the document, and pdfsig verifies it. axe-clean throughout.
// Screenshots go to /tmp/docsin/.

const SHOTS = '/tmp/docsin';
const WORD = path.resolve('test/fixtures/tags/lease.docx');
const hasLibreOffice = spawnSync('sh', ['-c', 'command -v soffice'], { encoding: 'utf8' }).status === 0;
const photo = (): Buffer => Buffer.from(strokePng(400, 300).split(',')[1]!, 'base64');

type TemplateField = { name: string; type: string; signer: number; page: number; x: number; y: number; width: number; height: number };

describe('a Word template with a condition, a formula and an attachment, signed in Chromium', { skip: hasLibreOffice ? false : 'LibreOffice is not installed' }, () => {
  let b: BrowserHarness;
  let templateId: string;
  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    b = await openBrowserHarness();
    await b.h.deps.worker.start();
    const m = multipart([{ name: 'name', value: 'Lease from Word' }, { name: 'file', value: fs.readFileSync(WORD), filename: 'lease.docx' }]);
    const res = await b.h.request({ method: 'POST', url: '/api/v1/templates', as: b.h.actors.aTest, payload: m.payload, headers: m.headers });
    assert.equal(res.status, 201, res.body);
    const t = res.json<{ id: string; fields: TemplateField[] }>();
    templateId = t.id;
    const byName = new Map(t.fields.map((f) => [f.name, f]));
    const sign = byName.get('tenant_sign')!;
    assert.equal(sign.type, 'signature');
    assert.equal(sign.signer, 1);
    // The builder's edit: three fields for the tenant under their name's tag.
    const below = (dy: number, width = 200, height = 20) => ({ page: 1, x: 72, y: Math.min(700, byName.get('tenant_name')!.y + dy), width, height });
    const fields = [
      ...t.fields,
      { name: 'has_pet', type: 'checkbox', label: 'I keep a pet', signer: 1, required: false, ...below(300, 14, 14) },
      { name: 'pet_photo', type: 'attachment', label: 'Photo of the pet', signer: 1, required: true, accept: ['image/png', 'image/jpeg'], max_files: 2, condition: { field: 'has_pet', equals: true }, ...below(330, 260, 40) },
      { name: 'months', type: 'number', label: 'Months of deposit', signer: 1, required: true, ...below(390, 80) },
      { name: 'deposit', type: 'number', label: 'Deposit', signer: 1, required: true, formula: 'rent * months', ...below(420, 100) },
    ];
    const patched = await b.h.request({ method: 'PATCH', url: `/api/v1/templates/${templateId}`, as: b.h.actors.aTest, json: { fields } });
    assert.equal(patched.status, 200, patched.body);
  });
  after(async () => {
    await b?.h.deps.worker.stop();
    await b?.close();
  });

  const control = (page: Page, name: string) => page.locator(`[data-field="${name}"]`);

  for (const [width, height] of [[1280, 800], [390, 844]] as const) {
    it(`attaches a photo on the page, computes the deposit, and seals both (${width} px)`, async () => {
      const as = b.h.actors.aTest;
      const created = await b.h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId, prefill: { rent: '1250', pets: 'Yes' } } });
      assert.equal(created.status, 201, created.body);
      const formId = created.json<{ id: string }>().id;
      const sent = await b.h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients: [1, 2, 3].map((n) => ({ email: `party${n}-${width}@example.com`, channel: 'email', name: `Party ${n}` })) } });
      assert.equal(sent.status, 200, sent.body);
      const tokens = sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients.map((r) => /\/sign\/([A-Za-z0-9_-]{43})$/.exec(r.signing_url)![1]!);

      const context = await b.browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, hasTouch: width < 500, isMobile: width < 500 });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
      try {
        await page.goto(`${b.origin}/sign/${tokens[0]}`, { waitUntil: 'load' });
        await waitForDocument(page);
        assert.equal(await control(page, 'pet_photo').isVisible(), false, 'the photo field waits for its condition');
        await assertAxeClean(page, `opened ${width}`);

        await control(page, 'tenant_name').fill('Ada Lovelace');
        await control(page, 'has_pet').check();
        await control(page, 'pet_photo').waitFor({ state: 'visible' });
        // A phone is offered its camera; a desktop only the file dialog.
        assert.equal(await page.locator('.attach-photo').isVisible(), width < 500);
        const id = await control(page, 'pet_photo').getAttribute('id');
        await page.locator(`#${id}-file`).setInputFiles({ name: 'rex.png', mimeType: 'image/png', buffer: photo() });
        await page.locator(`#${id}-list li`, { hasText: 'rex.png' }).waitFor({ timeout: 30_000 });
        assert.equal(await control(page, 'pet_photo').getAttribute('value'), 'rex.png', "the field's value is its files' names");
        await control(page, 'months').fill('2');
        assert.equal(await control(page, 'deposit').inputValue(), '2500', 'rent × months, computed as typed');
        await screenshot(page, `${SHOTS}/sign-attached-${width}.png`, { fullPage: true });
        await assertAxeClean(page, `attached ${width}`);

        await drawSignature(page, 'tenant_sign');
        await page.locator('#consent').check();
        await page.locator('#finish').click();
        await page.locator('h1', { hasText: 'You signed' }).waitFor({ timeout: 30_000 });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }

      // The landlord and the guarantor sign without the browser.
      const signature = { image: strokePng(), method: 'drawn' };
      for (const [token, values] of [[tokens[1]!, { landlord_sign: signature }], [tokens[2]!, { _signature: signature }]] as const) {
        const res = await b.h.app.inject({ method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ values, consent: true }) });
        assert.equal(res.statusCode, 200, res.body);
      }
      const pdf = await sealedPdfOf(b.h, formId);
      const file = path.join(SHOTS, `sealed-${width}.pdf`);
      fs.writeFileSync(file, pdf);
      const pages = Number(/Pages:\s+(\d+)/.exec(spawnSync('pdfinfo', [file], { encoding: 'utf8' }).stdout)?.[1]);
      const text = (n: number) => spawnSync('pdftotext', ['-f', String(n), '-l', String(n), file, '-'], { encoding: 'utf8' }).stdout;
      assert.match(text(1), /2500/, 'the computed deposit on the document');
      assert.match(text(1), /rex\.png/, 'the attachment field names its file');
      const attachedAt = Array.from({ length: pages }, (_, i) => i + 1).find((n) => /Attachment 1 of 1: rex\.png/.test(text(n)));
      assert.ok(attachedAt !== undefined && attachedAt > 1, 'the photo has a page after the document');
      assert.match(spawnSync('pdfimages', ['-list', '-f', String(attachedAt), '-l', String(attachedAt), file], { encoding: 'utf8' }).stdout, /400\s+300/);
      assert.ok(spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout.includes('Signature is Valid'), 'pdfsig verifies the seal over document and attachment');
      spawnSync('pdftoppm', ['-png', '-r', '40', '-f', String(attachedAt), '-l', String(attachedAt), file, path.join(SHOTS, `sealed-${width}-attachment`)]);
    });
  }
});
