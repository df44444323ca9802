import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { openBrowserHarness, requestsAway, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { assertAxeClean, waitForDocument as waitForDocumentDrawn } from './page-checks.js';
import { drawSignature as drawWave, f1040Template, FIRST, LAST, MAIL, REQUIRED, SIGNATURE, SINGLE } from './f1040-form.js';
import { sendTo } from './support.js';

// The signing page on a real government form (the IRS 1040, an XFA hybrid), in Chromium at 1280×800
// and 390×844: fields by the labels the PDF gives them, never the raw AcroForm names; "Next field"
// walking every required field; a bad e-mail refused at the field in its label's words before any
// request; a reload restoring typed values and the drawn signature (after the leave warning).
// Screenshots go to /tmp/formsign-signpage/.

const SHOTS = '/tmp/formsign-signpage';

describe('signing page on the 1040 in Chromium', () => {
  let b: BrowserHarness;
  let templateId: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    b = await openBrowserHarness();
    templateId = await f1040Template(b.h);
  });
  after(() => b?.close());

  const axe = assertAxeClean;
  const waitForDocument = (page: Page): Promise<void> => waitForDocumentDrawn(page, /2 pages/, 60_000);

  const activeField = (page: Page): Promise<string | null> => page.evaluate(`document.activeElement?.closest('[data-field]')?.dataset.field ?? null`) as Promise<string | null>;
  const control = (page: Page, name: string) => page.locator(`[data-field="${name}"]`);

  const drawSignature = (page: Page): Promise<void> => drawWave(page, control(page, SIGNATURE).getByRole('button', { name: /Add signature|Change/ }));

  /** Dark pixels in the panel's signature preview (0 when nothing is shown). */
  const previewInk = (page: Page): Promise<number> => page.evaluate(`(() => {
    const c = document.querySelector('[data-field="${SIGNATURE}"] .sig-preview');
    if (!c || c.hidden || c.width === 0) return 0;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 100) n++;
    return n;
  })()`) as Promise<number>;

  for (const [width, height] of [[1280, 800], [390, 844]] as const) {
    it(`at ${width}×${height}: labels not names, Next field, a label-worded e-mail error, reload restores values and the drawn signature`, async () => {
      const f = await sendTo(b.h, b.h.actors.aTest, templateId, [`filer-${width}@example.com`]);
      const context = await b.browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, hasTouch: width < 500 });
      const page = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      const posts: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('request', (r) => { requests.push(r.url()); if (r.method() === 'POST') posts.push(r.url()); });
      const shot = (step: string) => screenshot(page, `${SHOTS}/f1040-${width}-${step}.png`, { fullPage: step !== 'viewport' });
      try {
        await page.goto(`${b.origin}/sign/${f.tokens[0]}`, { waitUntil: 'load' });
        await waitForDocument(page);
        // A phone starts a form this long in guided mode (guided-phone-browser.test.ts); this test walks the list view.
        if (width < 900) await page.locator('#list-view').click();
        await shot('1-opened');
        await screenshot(page, `${SHOTS}/f1040-${width}-viewport.png`);

        // Labels, never raw names: not in the panel, not printed over the document.
        const text = (await page.evaluate('document.body.innerText')) as string;
        assert.doesNotMatch(text, /topmostSubform|f1_\d\d|c1_\d\d/, 'no raw AcroForm name is visible');
        assert.match(text, /Your first name and middle initial/);
        assert.match(text, /Married filing jointly/);
        const printed = (await page.evaluate(`[...document.querySelectorAll('.marker')].map((m) => m.innerText.trim()).filter(Boolean)`)) as string[];
        assert.deepEqual(printed, ['Sign here'], 'no label over the document before filling, only the signature box\'s hint');
        assert.equal(await page.getByRole('button', { name: 'Your first name and middle initial, on page 1', exact: true }).count(), 1, 'a box is named by its label');
        const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
        assert.ok(overflow <= 0, `no horizontal scrolling at ${width} px (overflow ${overflow})`);
        assert.equal(await page.locator('#guide-progress').innerText(), '0 of 5');
        await axe(page, 'opened');

        // "Next field" walks every required field in the panel's order, then wraps around.
        const walked: Array<string | null> = [];
        for (let i = 0; i < REQUIRED.length + 1; i++) {
          await page.locator('#next-field').click();
          walked.push(await activeField(page));
        }
        assert.deepEqual(walked, [...REQUIRED, REQUIRED[0]]);
        await screenshot(page, `${SHOTS}/f1040-${width}-next-field.png`);
        if (width >= 900) {
          // On a desktop the box on the page comes into view too (the document column scrolls).
          await page.waitForTimeout(800);
          const marker = await page.locator('.marker.active').boundingBox();
          assert.ok(marker && marker.y >= 0 && marker.y + marker.height <= height, `the active box is in view: ${JSON.stringify(marker)}`);
        }
        assert.ok(await page.locator('#next-field').isVisible(), 'the guide stays in view');

        // A bad e-mail: refused at the field, in its label's words, before anything is sent.
        await control(page, MAIL).fill('ada@');
        await control(page, MAIL).press('Tab');
        const mailError = page.locator(`[data-field="${MAIL}"] ~ .field-error`);
        await mailError.waitFor({ state: 'visible' });
        assert.equal(await mailError.innerText(), 'Your e-mail address must be an e-mail address.');
        assert.equal(await control(page, MAIL).getAttribute('aria-invalid'), 'true');
        await shot('2-bad-email');
        await screenshot(page, `${SHOTS}/f1040-${width}-bad-email-viewport.png`);
        await page.locator('#next-field').scrollIntoViewIfNeeded();
        await page.getByRole('button', { name: /^Finish/ }).first().click();
        // Compact (issue 43): one line, "N left: <label> → Go", never the full list.
        assert.match(await page.locator('#form-error .left-text').innerText(), /^\d+ left: \S/);
        await screenshot(page, `${SHOTS}/f1040-${width}-finish-refused.png`);
        assert.ok(await page.locator('#form-error').isVisible(), 'the required-fields message is in view');
        const box = await page.locator('#form-error').boundingBox();
        assert.ok(box && box.y >= 0 && box.y + box.height <= height, `the message is inside the viewport: ${JSON.stringify(box)}`);
        assert.deepEqual(posts, [], 'the browser checked first: nothing was posted');
        await control(page, MAIL).fill('ada@example.com');
        await mailError.waitFor({ state: 'hidden' });
        await axe(page, 'with errors');

        await control(page, FIRST).fill('Ada M');
        await control(page, SINGLE).check();
        await drawSignature(page);
        assert.ok(await previewInk(page) > 50, 'the drawn signature shows');
        assert.equal(await page.locator('#guide-progress').innerText(), '4 of 5');
        await shot('3-filled');

        // Reload: the page warns first, then restores values and the drawn signature.
        const dialogs: string[] = [];
        page.on('dialog', (d) => { dialogs.push(d.type()); void d.accept(); });
        await page.reload({ waitUntil: 'load' });
        await waitForDocument(page);
        assert.deepEqual(dialogs, ['beforeunload']);
        assert.equal(await control(page, FIRST).inputValue(), 'Ada M');
        assert.equal(await control(page, MAIL).inputValue(), 'ada@example.com');
        assert.equal(await control(page, SINGLE).isChecked(), true);
        assert.ok(await previewInk(page) > 50, 'the drawn signature is restored');
        assert.equal(await page.locator('#guide-progress').innerText(), '4 of 5');
        await shot('4-restored');
        await axe(page, 'restored');

        if (width >= 900) {
          await control(page, LAST).fill('Lovelace');
          await page.locator('#consent').check();
          await page.locator('#finish').click();
          await page.locator('h1', { hasText: 'You signed' }).waitFor({ timeout: 30_000 });
          const form = await b.h.deps.database.db.selectFrom('forms').select('values').where('id', '=', f.formId).executeTakeFirstOrThrow();
          const values = JSON.parse(form.values) as Record<string, unknown>;
          assert.equal(values[FIRST], 'Ada M');
          assert.equal(values[MAIL], 'ada@example.com');
          assert.match(String(values[SIGNATURE]), /^sha256:/);
          const left = (await page.evaluate('Object.keys(sessionStorage).length')) as number;
          assert.equal(left, 0, 'the kept progress is cleared once signed');
        }
        assert.deepEqual(problems, [], 'no page or console error');
        assert.deepEqual(requestsAway(b.origin, requests), []);
      } finally {
        await context.close();
      }
    });
  }
});
