import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import type { Page } from 'playwright-core';
import { openBrowserHarness, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { multipart } from '../shared/multipart.js';
import { assertAxeClean, waitForDocument } from './page-checks.js';
import { drawSignature } from './draw-signature.js';
import { sendTo } from './support.js';

// Conditional fields and formulas on the signing page in Chromium at 1280 and 390 px (issue 41): a
// field appears when its condition comes true (box on the document and control in the panel), a
// formula's total follows the inputs live and read-only, "Next field" and the progress count only
// what is shown, and the server accepts what the page sends and stores the same total.
// Screenshots go to /tmp/formsign-field-logic/.

const SHOTS = '/tmp/formsign-field-logic';
const box = (y: number) => ({ page: 1, x: 72, y, width: 240, height: 22 });
const FIELDS = [
  { name: 'has_pet', type: 'checkbox', label: 'I have a pet', required: false, signer: 1, ...box(100), width: 16, height: 16 },
  { name: 'pet_name', type: 'text', label: 'Pet name', required: true, signer: 1, condition: { field: 'has_pet', equals: true }, ...box(140) },
  { name: 'qty', type: 'number', label: 'Quantity', required: true, signer: 1, ...box(180) },
  { name: 'price', type: 'number', label: 'Unit price', required: false, signer: 1, ...box(220) },
  { name: 'total', type: 'number', label: 'Total with tax', required: true, signer: 1, formula: 'round(qty * price * 1.0825, 2)', ...box(260) },
  { name: 'signature', type: 'signature', label: 'Your signature', required: true, signer: 1, ...box(320), height: 50 },
];

async function orderPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText('Order form', { x: 72, y: 720, size: 20, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

describe('conditional fields and formulas on the signing page in Chromium', () => {
  let b: BrowserHarness;
  let templateId: string;
  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    b = await openBrowserHarness();
    const m = multipart([{ name: 'name', value: 'Order form' }, { name: 'fields', value: JSON.stringify(FIELDS) }, { name: 'file', value: await orderPdf(), filename: 'order.pdf' }]);
    const res = await b.h.request({ method: 'POST', url: '/api/v1/templates', as: b.h.actors.aTest, payload: m.payload, headers: m.headers });
    assert.equal(res.status, 201, res.body);
    templateId = res.json<{ id: string }>().id;
  });
  after(() => b?.close());

  const control = (page: Page, name: string) => page.locator(`[data-field="${name}"]`);

  for (const [width, height] of [[1280, 800], [390, 844]] as const) {
    it(`shows, hides and computes as the signer types, and signs (${width} px)`, async () => {
      const f = await sendTo(b.h, b.h.actors.aTest, templateId, [`buyer-${width}@example.com`], { price: '19.99' });
      const context = await b.browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, hasTouch: width < 500 });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
      try {
        await page.goto(`${b.origin}/sign/${f.tokens[0]}`, { waitUntil: 'load' });
        await waitForDocument(page);
        assert.equal(await control(page, 'pet_name').isVisible(), false, 'the pet name is hidden until the box is ticked');
        assert.equal(await page.locator('.marker[hidden]').count(), 1, 'its box on the document too');
        assert.equal(await control(page, 'total').getAttribute('readonly'), '');
        assert.equal(await page.locator('#guide-progress').innerText(), '0 of 3', 'qty, total and the signature; not the hidden pet name');
        await assertAxeClean(page, 'opened');

        await control(page, 'has_pet').check();
        await control(page, 'pet_name').waitFor({ state: 'visible' });
        assert.equal(await page.locator('.marker[hidden]').count(), 0);
        assert.equal(await page.locator('#guide-progress').innerText(), '0 of 4');
        await control(page, 'qty').fill('3');
        assert.equal(await control(page, 'total').inputValue(), '64.92', '3 × 19.99 × 1.0825, rounded to cents');
        assert.equal(await page.locator('#guide-progress').innerText(), '2 of 4', 'the computed total counts as filled');
        await control(page, 'qty').fill('4');
        assert.equal(await control(page, 'total').inputValue(), '86.56');
        await control(page, 'pet_name').fill('Rex');
        await screenshot(page, `${SHOTS}/${width}-filled.png`, { fullPage: true });
        await assertAxeClean(page, 'filled');

        await drawSignature(page, 'signature');
        await page.locator('#consent').check();
        await page.locator('#finish').click();
        await page.locator('h1', { hasText: 'You signed' }).waitFor({ timeout: 30_000 });
        await screenshot(page, `${SHOTS}/${width}-signed.png`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
      const stored = (await b.h.request({ url: `/api/v1/forms/${f.formId}`, as: b.h.actors.aTest })).json<{ fields: Array<{ name: string; value: unknown }> }>();
      const value = (name: string) => stored.fields.find((x) => x.name === name)?.value;
      assert.equal(value('total'), '86.56');
      assert.equal(value('pet_name'), 'Rex');
      assert.equal(value('qty'), 4);
    });
  }
});
