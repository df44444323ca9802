import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { CATALOGUES } from '../../src/lib/i18n/index.js';
import { openBrowserHarness, PHONE_CONTEXT, requestsAway, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { assertAxeClean, waitForDocument } from './page-checks.js';
import { drawSignature, f1040Template, FIRST, LAST, MAIL, SIGNATURE, SINGLE } from './f1040-form.js';
import { sendTo } from './support.js';

// Guided mode on a phone (issue 43 item 1): an Arabic and a German signer fill and sign the IRS 1040 at
// 390×844 (touch, 2×) one field at a time in the sheet, never opening the list view. The document is
// laid out at the guided zoom and drawn by pdf.js at that size (a canvas as many pixels wide as its
// box times the screen's density, not a small one stretched); a tap on a box opens its field; every
// box is at least 24 px to a finger; a reload in another browser context (another device) restores the
// draft; axe-core is clean in every state. Screenshots of each state: test-results/guided-phone/.

const SHOTS = path.resolve('test-results', 'guided-phone');

const SIGNERS = [
  { lang: 'de', locale: 'de-DE', first: 'Jürgen K', last: 'Weiß', mail: 'juergen@example.de' },
  { lang: 'ar', locale: 'ar', first: 'سارة م', last: 'العلي', mail: 'sara.ali@example.com' },
] as const;

describe('guided mode on a phone: the 1040 filled one field at a time', () => {
  let b: BrowserHarness;
  let templateId: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    b = await openBrowserHarness();
    templateId = await f1040Template(b.h);
  });
  after(() => b?.close());

  /** The element id of the control for field `name` (`field-<i>`), which its box names in data-for. */
  const idOf = (page: Page, name: string): Promise<string> => page.evaluate(`document.querySelector('[data-field="${name}"]').id`) as Promise<string>;

  /** Taps the field's box on the document (brought into the part of the screen the sheet leaves free). */
  async function tapBox(page: Page, name: string): Promise<void> {
    const id = await idOf(page, name);
    const marker = page.locator(`.marker[data-for="${id}"]`);
    await page.evaluate(`document.querySelector('.marker[data-for="${id}"]').scrollIntoView({ block: 'center', inline: 'center' })`);
    await marker.tap();
    await page.locator(`#sheet [data-field="${name}"]`).waitFor();
  }

  for (const s of SIGNERS) {
    it(`a ${s.lang} signer fills and signs in the sheet, and another device restores the draft`, async () => {
      const T = CATALOGUES[s.lang];
      const f = await sendTo(b.h, b.h.actors.aTest, templateId, [`guided-${s.lang}@example.com`]);
      const url = `${b.origin}/sign/${f.tokens[0]}`;
      const problems: string[] = [];
      const requests: string[] = [];
      const contexts: BrowserContext[] = [];
      const open = async (): Promise<Page> => {
        const context = await b.browser.newContext({ ...PHONE_CONTEXT, locale: s.locale });
        contexts.push(context);
        const page = await context.newPage();
        page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
        page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
        page.on('request', (r) => requests.push(r.url()));
        await page.goto(url, { waitUntil: 'load' });
        await waitForDocument(page, /2/, 90_000);
        return page;
      };
      const shot = (page: Page, step: string) => screenshot(page, path.join(SHOTS, `${s.lang}-${step}.png`));
      try {
        const page = await open();
        // Guided from the start, in the signer's language; the list is not shown.
        assert.equal(await page.locator('html').getAttribute('lang'), s.lang);
        assert.ok(await page.locator('body.guided-mode').count() === 1, 'guided mode is on');
        await page.locator('#sheet').waitFor();
        assert.match(await page.locator('#sheet-step').innerText(), new RegExp(T['sign.guidedStep'].replace('{n}', '1').replace('{total}', '\\d+')));
        assert.equal(await page.locator('#panel-title').isVisible(), false, 'the list view is not shown');
        assert.equal(await page.locator('#list-view').innerText(), T['sign.listView']);
        // The first page is laid out at the zoom and drawn by pdf.js at that size and the screen's density.
        // A function, not a string: a string predicate is re-run with eval, which the page's CSP forbids.
        await page.waitForFunction(() => {
          type Canvas = { width: number; getBoundingClientRect(): { width: number } };
          const c = (globalThis as unknown as { document: { querySelector(s: string): Canvas | null } }).document.querySelector('.page > canvas');
          return !!c && c.width >= 2 * c.getBoundingClientRect().width - 2 && c.getBoundingClientRect().width > 1000;
        }, undefined, { timeout: 60_000 });
        const drawn = (await page.evaluate(`(() => { const c = document.querySelector('.page > canvas'); return { pixels: c.width, css: c.getBoundingClientRect().width }; })()`)) as { pixels: number; css: number };
        assert.ok(drawn.css > 1000 && drawn.pixels >= drawn.css * 2 - 2, `crisp at the zoom: ${JSON.stringify(drawn)}`);
        // Every one of this signer's boxes takes a finger: at least 24 × 24 px to tap, however small drawn.
        const small = (await page.evaluate(`[...document.querySelectorAll('.marker.mine')].map((m) => {
          const r = m.getBoundingClientRect();
          const hit = getComputedStyle(m, '::before');
          const w = r.width - parseFloat(hit.left) - parseFloat(hit.right);
          const h = r.height - parseFloat(hit.top) - parseFloat(hit.bottom);
          return Math.min(w, h);
        }).filter((size) => size < 23.5).length`)) as number;
        assert.equal(small, 0, 'no tap target under 24 px');
        await shot(page, '1-opened');
        await assertAxeClean(page, `${s.lang} opened`);

        // A tap on a box opens its field in the sheet; Next and Previous walk the fields.
        await tapBox(page, FIRST);
        await page.locator(`#sheet [data-field="${FIRST}"]`).fill(s.first);
        const step = await page.locator('#sheet-step').innerText();
        await page.locator('#sheet-next').tap();
        assert.notEqual(await page.locator('#sheet-step').innerText(), step);
        await page.locator('#sheet-prev').tap();
        assert.equal(await page.locator('#sheet-step').innerText(), step);
        assert.equal(await page.locator(`#sheet [data-field="${FIRST}"]`).inputValue(), s.first);
        await shot(page, '2-field');
        await assertAxeClean(page, `${s.lang} a field`);

        // A wrong e-mail: its error in the sheet, in the signer's language, the label isolated.
        await tapBox(page, MAIL);
        await page.locator(`#sheet [data-field="${MAIL}"]`).fill('ada@');
        await page.locator('#sheet-next').tap();
        await page.locator('#sheet-prev').tap();
        const error = page.locator(`#sheet .field-error`);
        await error.waitFor();
        assert.equal(await error.innerText(), T['problem.email'].replace('{label}', 'Your e-mail address'));
        assert.equal(await error.locator('bdi').innerText(), 'Your e-mail address');
        await shot(page, '3-error');
        await assertAxeClean(page, `${s.lang} with an error`);
        const saved = page.waitForResponse((r) => r.url().endsWith('/draft') && r.request().method() === 'PUT' && r.status() === 200 && (r.request().postData() ?? '').includes(s.mail));
        await page.locator(`#sheet [data-field="${MAIL}"]`).fill(s.mail);
        await tapBox(page, SINGLE);
        await page.locator(`#sheet [data-field="${SINGLE}"]`).check();
        await saved;

        // The actions menu at the top: Decline, Finish later, Download, Help (no reassignment here).
        await page.locator('#actions-menu > summary').tap();
        await page.locator('.actions-list').waitFor();
        assert.equal(await page.locator('#reassign-link').count(), 0, 'no "assign to someone else" unless the form allows it');
        await shot(page, '4-menu');
        await assertAxeClean(page, `${s.lang} the actions menu`);
        await page.locator('#actions-menu > summary').tap();

        // Another device: a fresh context; the server's draft is there, still in guided mode.
        const other = await open();
        assert.ok(await other.locator('body.guided-mode').count() === 1);
        await tapBox(other, FIRST);
        assert.equal(await other.locator(`#sheet [data-field="${FIRST}"]`).inputValue(), s.first);
        await tapBox(other, MAIL);
        assert.equal(await other.locator(`#sheet [data-field="${MAIL}"]`).inputValue(), s.mail);
        await tapBox(other, SINGLE);
        assert.equal(await other.locator(`#sheet [data-field="${SINGLE}"]`).isChecked(), true);
        await shot(other, '5-restored');
        await assertAxeClean(other, `${s.lang} restored`);

        // The rest, then the review step: consent and Finish, all in the sheet.
        await tapBox(other, LAST);
        await other.locator(`#sheet [data-field="${LAST}"]`).fill(s.last);
        await tapBox(other, SIGNATURE);
        await drawSignature(other, other.locator(`#sheet [data-field="${SIGNATURE}"] .sig-button`));
        await shot(other, '6-signed-field');
        await other.locator('#guide-finish').tap();
        await other.locator('#sheet #consent').waitFor();
        await shot(other, '7-review');
        await assertAxeClean(other, `${s.lang} review`);
        await other.locator('#sheet #consent').check();
        await other.locator('#sheet #finish').tap();
        await other.locator('.notice-icon.done').waitFor({ timeout: 30_000 });
        await shot(other, '8-done');
        await assertAxeClean(other, `${s.lang} signed`);
        assert.equal(await other.locator('#list-view').count(), 0);

        const form = await b.h.deps.database.db.selectFrom('forms').select('values').where('id', '=', f.formId).executeTakeFirstOrThrow();
        const values = JSON.parse(form.values) as Record<string, unknown>;
        assert.equal(values[FIRST], s.first);
        assert.equal(values[LAST], s.last);
        assert.equal(values[MAIL], s.mail);
        assert.equal(values[SINGLE], true);
        assert.match(String(values[SIGNATURE]), /^sha256:/);
        assert.deepEqual(problems, [], 'no page or console error');
        assert.deepEqual(requestsAway(b.origin, requests), []);
      } finally {
        for (const c of contexts) await c.close();
      }
    });
  }
});
