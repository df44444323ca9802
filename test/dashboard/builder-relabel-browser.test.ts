import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Harness } from '../harness.js';
import { fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';
import { assertAxeClean, waitForInk } from '../signing/page-checks.js';
import { signedInDashboard } from './builder-browser.js';
import { startBrowserStage, type BrowserStage } from './browser-support.js';
import { screenshot } from '../pages/chromium.js';

// The builder's "Relabel from the PDF" in Chromium at 1280 and 390 px: a 1040 whose fields have no
// labels (as a template made before labels were imported) gets the XFA's words at a click, saved at
// once (a reload shows them), with a label the sender wrote kept; with unsaved edits the button says to
// save first. And the builder's two old axe findings are gone: axe-core reports no violation at all of
// the page-heading rules and of the name rules on the boxes (a signature box included), and no serious
// or critical violation of any rule. Screenshots go to test-results/builder-relabel/.

const SHOTS = path.resolve('test-results', 'builder-relabel');
const F1040 = 'irs_f1040_2019_xfa_hybrid.pdf';
const FIRST_NAME = 'topmostSubform[0].Page1[0].f1_02[0]';
const APT = 'topmostSubform[0].Page1[0].ReadOrderControl[0].Address[0].f1_09[0]';
const SIGNATURE = { name: 'signature', type: 'signature', required: true, signer: 1, page: 2, x: 100, y: 600, width: 200, height: 40 };
// The rules behind the builder's two findings of session 11: a page's level-1 heading, and the names
// of interactive boxes (the signature box was announced by no name).
const FINDINGS = ['page-has-heading-one', 'heading-order', 'empty-heading', 'aria-command-name', 'aria-toggle-field-name', 'aria-input-field-name', 'button-name', 'nested-interactive', 'label'];

interface Field { name: string; type: string; label?: string }

describe('builder: Relabel from the PDF, and axe-core (Chromium)', () => {
  let d: BrowserStage;
  let h: Harness;
  let origin: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    d = await startBrowserStage();
    h = d.h;
    origin = d.origin;
  });
  after(() => d?.close());

  /** A 1040 template of account A with its labels gone (one written by hand) and a signature box drawn. */
  async function unlabelled1040(): Promise<string> {
    const m = multipart([{ name: 'file', value: fixture(F1040), filename: F1040 }]);
    const up = await h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
    assert.equal(up.status, 201, up.body);
    const t = up.json<{ id: string; fields: Field[] }>();
    const fields = [...t.fields.map(({ label: _l, ...f }) => (f.name === APT ? { ...f, label: 'Flat (my words)' } : f)), SIGNATURE];
    const res = await h.request({ method: 'PATCH', url: `/api/v1/templates/${t.id}`, as: h.actors.aTest, json: { fields } });
    assert.equal(res.status, 200, res.body);
    return t.id;
  }

  /** The label the properties panel shows for a field chosen in the list. */
  async function labelShown(page: Page, name: string): Promise<string> {
    await page.locator('.field-list button', { hasText: name }).first().click();
    return page.locator('#insp-label').inputValue();
  }

  async function findings(page: Page): Promise<Array<{ id: string; impact: string }>> {
    // assertAxeClean (serious/critical) has put axe-core in the page already.
    return (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact })))`)) as Array<{ id: string; impact: string }>;
  }

  for (const width of [1280, 390]) {
    it(`at ${width} px: one click gives the fields the PDF's labels, saved; written labels kept; axe finds neither old finding`, async () => {
      const templateId = await unlabelled1040();
      const w = await signedInDashboard(d, width, 'relabel');
      const { page } = w;
      try {
        await page.goto(`${origin}/dashboard/templates/${templateId}`);
        await page.locator('.builder').waitFor();
        await waitForInk(page, '.pdf-canvas');

        // The two findings: one level-1 heading; the signature box is named by its field and type.
        assert.equal(await page.locator('h1').count(), 1);
        assert.match(await page.locator('h1').innerText(), /Template builder: irs_f1040/);
        const sigBox = page.locator('.box[data-key]', { hasText: 'signature' }).last();
        assert.match((await sigBox.getAttribute('aria-label')) ?? '', /^signature, Signature field for signer 1, required\./);
        await assertAxeClean(page, `builder ${width}`);
        assert.deepEqual((await findings(page)).filter((v) => FINDINGS.includes(v.id)), [], 'no heading or name finding of any impact');

        assert.equal(await labelShown(page, FIRST_NAME), '', 'no label yet');
        // Unsaved edits first: the button says to save them.
        await page.locator('#template-name').fill('1040 (edited)');
        await page.getByRole('button', { name: 'Relabel from the PDF' }).click();
        await page.locator('.relabel-note', { hasText: 'Save your changes first' }).waitFor();
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await page.getByText('All changes saved').waitFor();

        await page.getByRole('button', { name: 'Relabel from the PDF' }).click();
        // 116 AcroForm fields; the one with written words keeps them; the drawn signature is not the PDF's.
        await page.locator('.relabel-note', { hasText: '115 labels taken from the PDF.' }).waitFor({ timeout: 60_000 });
        assert.equal(await page.locator('.save-state').innerText(), 'All changes saved', 'nothing left unsaved');
        assert.equal(await labelShown(page, FIRST_NAME), 'Your first name and middle initial');
        assert.equal(await labelShown(page, APT), 'Flat (my words)');
        const box = page.locator(`.box[data-field="${FIRST_NAME}"]`).first();
        // The label first (what the box shows), the AcroForm name after it (issue 37).
        assert.match((await box.getAttribute('aria-label')) ?? '', /^Your first name and middle initial \(topmostSubform\[0\]\.Page1\[0\]\.f1_02\[0\]\), /, 'the box is named by its label, then its field name');
        await page.evaluate('window.scrollTo(0, 0)');
        await screenshot(page, path.join(SHOTS, `relabelled-${width}.png`));
        await assertAxeClean(page, `builder relabelled ${width}`);

        // Saved on the server: a reload shows the labels; a second click changes nothing.
        await page.reload();
        await page.locator('.builder').waitFor();
        assert.equal(await labelShown(page, FIRST_NAME), 'Your first name and middle initial');
        await page.getByRole('button', { name: 'Relabel from the PDF' }).click();
        await page.locator('.relabel-note', { hasText: 'No labels changed' }).waitFor({ timeout: 60_000 });
        assert.deepEqual(w.problems, []);
      } finally {
        await w.close();
      }
    });
  }
});
