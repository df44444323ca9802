import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Harness } from '../harness.js';
import { multipart } from '../shared/multipart.js';
import { assertAxeClean, waitForInk } from '../signing/page-checks.js';
import { signedInDashboard } from './builder-browser.js';
import { startBrowserStage, type BrowserStage } from './browser-support.js';
import { screenshot } from '../pages/chromium.js';

// The builder edits what issue 41 added (item 6), in Chromium at 1280 and 390 px: "Detect tags" reads
// a tagged template's document again and offers the fields it lacks (added, then saved); a number
// field's formula with its live preview (the signing page's evaluator); "Show when …" on a select's
// value; an attachment field's file types and count; two fields with the same label flagged. What was
// saved is read back through the API. axe-clean; screenshots in /tmp/docsin/.

const SHOTS = '/tmp/docsin';
const LEASE = path.resolve('test/fixtures/tags/lease.pdf');

interface Field { name: string; type: string; label?: string; page: number; y: number; condition?: unknown; formula?: string; accept?: string[]; max_files?: number }

describe('builder: conditions, formulas, attachments and Detect tags (Chromium)', () => {
  let d: BrowserStage;
  let h: Harness;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    d = await startBrowserStage();
    h = d.h;
  });
  after(() => d?.close());

  /** The tagged lease without two of its tag fields (rent, pets), plus the fields the test edits. */
  async function leaseTemplate(): Promise<string> {
    const m = multipart([{ name: 'name', value: 'Lease' }, { name: 'file', value: fs.readFileSync(LEASE), filename: 'lease.pdf' }]);
    const up = await h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
    assert.equal(up.status, 201, up.body);
    const t = up.json<{ id: string; fields: Field[] }>();
    const at = (y: number) => ({ page: 1, x: 300, y, width: 120, height: 20, signer: 1, required: false });
    const fields = [
      ...t.fields.filter((f) => f.name !== 'rent' && f.name !== 'pets'),
      { name: 'monthly', type: 'number', label: 'Monthly rent', ...at(500) },
      { name: 'months', type: 'number', label: 'Months', ...at(530) },
      { name: 'deposit', type: 'number', label: 'Deposit', ...at(560) },
      { name: 'plan', type: 'select', label: 'Plan', options: ['basic', 'pro'], ...at(590) },
      { name: 'proof', type: 'attachment', label: 'Proof of income', ...at(620), height: 40 },
      { name: 'contact_a', type: 'text', label: 'Contact', ...at(670) },
      { name: 'contact_b', type: 'text', label: 'Contact', ...at(700) },
    ];
    const res = await h.request({ method: 'PATCH', url: `/api/v1/templates/${t.id}`, as: h.actors.aTest, json: { fields } });
    assert.equal(res.status, 200, res.body);
    return t.id;
  }

  const pick = (page: Page, label: string) => page.locator('.field-list button', { hasText: label }).first().click();

  for (const width of [1280, 390]) {
    it(`at ${width} px: detects tags, edits a formula with its preview, a condition and an attachment field, flags duplicate labels, and saves`, async () => {
      const templateId = await leaseTemplate();
      const w = await signedInDashboard(d, width, 'logic');
      const { page } = w;
      try {
        await page.goto(`${d.origin}/dashboard/templates/${templateId}`);
        await page.locator('.builder').waitFor();
        await waitForInk(page, '.pdf-canvas');
        assert.equal(await page.locator('.fl-flag', { hasText: 'Same label' }).count(), 2, 'both Contact fields are flagged');
        await assertAxeClean(page, `builder ${width}`);

        // Detect tags: the two tag fields the template lacks are offered and added.
        await page.getByRole('button', { name: 'Detect tags' }).click();
        const found = page.getByRole('group', { name: 'Fields found in the document' });
        await found.waitFor({ timeout: 60_000 });
        assert.equal(await found.getByRole('checkbox').count(), 2, 'rent and pets, the tags the template lacks');
        await screenshot(page, path.join(SHOTS, `builder-detect-${width}.png`));
        await assertAxeClean(page, `detect tags ${width}`);
        await found.getByRole('button', { name: 'Add 2 fields' }).click();
        await page.locator('.field-list h2', { hasText: 'Fields (14)' }).waitFor();

        // A formula, with its preview computed as the signing page will.
        await pick(page, 'Deposit');
        await page.locator('#formula-text').fill('monthly * months');
        await page.locator('#sample-monthly').fill('1250.50');
        await page.locator('#sample-months').fill('2');
        assert.equal(await page.getByTestId('formula-result').innerText(), '2501.00');
        await page.locator('#formula-text').fill('monthly * nothing');
        await page.locator('#formula-state', { hasText: 'Not a field of this template: nothing.' }).waitFor();
        await page.locator('#formula-text').fill('monthly * months');

        // Show when: the proof of income only on the pro plan.
        await pick(page, 'Proof of income');
        await page.locator('#cond-field').selectOption('plan');
        await page.locator('#cond-value').selectOption('pro');
        // The attachment's types and count.
        await page.getByRole('checkbox', { name: 'PDF' }).uncheck();
        await page.locator('#max-files').fill('3');
        await page.locator('.inspector').scrollIntoViewIfNeeded();
        await screenshot(page, path.join(SHOTS, `builder-logic-${width}.png`), { fullPage: width < 500 });
        assert.ok(Number(await page.evaluate('document.documentElement.scrollWidth')) <= width, 'nothing pushes the page sideways');
        await assertAxeClean(page, `logic editors ${width}`);

        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await page.getByText('All changes saved').waitFor({ timeout: 30_000 });
        const saved = (await h.request({ url: `/api/v1/templates/${templateId}`, as: h.actors.aTest })).json<{ fields: Field[] }>();
        const f = (name: string) => saved.fields.find((x) => x.name === name);
        assert.equal(f('deposit')?.formula, 'monthly * months');
        assert.deepEqual(f('proof')?.condition, { field: 'plan', equals: 'pro' });
        assert.deepEqual(f('proof')?.accept, ['image/png', 'image/jpeg']);
        assert.equal(f('proof')?.max_files, 3);
        assert.equal(f('rent')?.type, 'number', 'the detected tag field was saved');
        assert.equal(f('pets')?.type, 'select');
        assert.deepEqual(w.problems, []);
      } finally {
        await w.close();
      }
    });
  }
});
