import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { openBrowserHarness, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { MIXED_DIRECTION } from '../shared/mixed-direction.js';
import { assertAxeClean, waitForDocument } from './page-checks.js';
import { sendTo, twoSignerTemplate } from './support.js';

// Bidi on the signing page (issue 43 item 3): document words inside the page's own are isolated. Each
// string of the mixed-direction table (test/shared/mixed-direction.ts), and the English labels the
// issue found scrambled on Arabic and Hebrew pages, is a field's label; on the page in each
// right-to-left language, the label, the error sentence that embeds it and the value typed show their
// characters in the visual order Chromium gives the same string isolated (<bdi> alone in a dir="rtl"
// block, in the same font). The order is read from where each character is drawn (Range rects).
// Screenshots: test-results/bidi-labels/.

const SHOTS = path.resolve('test-results', 'bidi-labels');
const ENGLISH = ['ending. Month and day, 2024,', 'Spouse (if joint), SSN: 123-45', 'Apt. no. 3B!'];
const CASES = [...MIXED_DIRECTION.map((c) => c.text), ...ENGLISH];

/**
 * The characters of `text` inside the element `selector` finds, in the order they are drawn left to
 * right, and the same for `text` alone in <bdi> in a dir="rtl" block put beside it (same font).
 */
function visualOrders(page: Page, selector: string, text: string): Promise<{ shown: string; isolated: string }> {
  return page.evaluate(`(() => {
    const CONTROLS = /[\\u2066-\\u2069\\u200e\\u200f]/;
    // Where each character of the words is drawn, left to right; on one line (nothing wraps while measured).
    const order = (root, text) => {
      const nodes = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      let all = '';
      while (walker.nextNode()) { nodes.push({ node: walker.currentNode, at: all.length }); all += walker.currentNode.data; }
      const start = all.toLowerCase().indexOf(text.toLowerCase());
      if (start < 0) return { text: null, order: 'missing: ' + all };
      const chars = [];
      for (let i = start; i < start + text.length; i++) {
        const ch = all[i];
        if (CONTROLS.test(ch) || ch === ' ') continue;
        const n = nodes.filter((x) => x.at <= i).pop();
        const range = document.createRange();
        range.setStart(n.node, i - n.at);
        range.setEnd(n.node, i - n.at + 1);
        const r = range.getClientRects()[0];
        if (r) chars.push({ ch, x: r.left + r.width / 2, i });
      }
      return { text: all.slice(start, start + text.length), order: chars.sort((a, b) => a.x - b.x || a.i - b.i).map((c) => c.ch).join('') };
    };
    const el = document.querySelector(${JSON.stringify(selector)});
    const wrap = el.style.whiteSpace;
    el.style.whiteSpace = 'nowrap';
    const shown = order(el, ${JSON.stringify(text)});
    el.style.whiteSpace = wrap;
    if (shown.text === null) return { shown: shown.order, isolated: '' };
    // The same words (as the page wrote them: a label's first letter may be capitalised), alone in <bdi>.
    const ref = document.createElement('div');
    ref.dir = 'rtl';
    ref.style.position = 'absolute';
    ref.style.whiteSpace = 'nowrap';
    ref.style.width = 'max-content';
    const bdi = document.createElement('bdi');
    bdi.textContent = shown.text;
    ref.append(bdi);
    el.after(ref);
    const isolated = order(ref, shown.text).order;
    ref.remove();
    return { shown: shown.order, isolated };
  })()`) as Promise<{ shown: string; isolated: string }>;
}

describe('document words on right-to-left signing pages keep their own order', () => {
  let b: BrowserHarness;
  let templateId: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    b = await openBrowserHarness();
    templateId = await twoSignerTemplate(b.h, b.h.actors.aTest.partition);
    const t = (await b.h.request({ method: 'GET', url: `/api/v1/templates/${templateId}`, as: b.h.actors.aTest })).json<{ fields: Array<Record<string, unknown>> }>();
    // A number field per string: typing letters gives an error sentence that embeds the label.
    const fields = [...t.fields, ...CASES.map((label, i) => ({ name: `mixed_${i}`, type: 'number', label, required: false, signer: 1, page: 1, x: 300, y: 300 + i * 24, width: 200, height: 20 }))];
    const patched = await b.h.request({ method: 'PATCH', url: `/api/v1/templates/${templateId}`, as: b.h.actors.aTest, json: { fields } });
    assert.equal(patched.status, 200, patched.body);
  });
  after(() => b?.close());

  for (const lang of ['ar', 'he'] as const) {
    it(`${lang}: labels, the errors that embed them and typed values, as Chromium orders each isolated`, async () => {
      const f = await sendTo(b.h, b.h.actors.aTest, templateId, [`bidi-${lang}@example.com`, `other-${lang}@example.com`]);
      const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: lang });
      const page = await context.newPage();
      try {
        await page.goto(`${b.origin}/sign/${f.tokens[0]}`, { waitUntil: 'load' });
        // The page count is said in the page's language: any text, then ink on the first page.
        await waitForDocument(page, /\S/);
        assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
        const wrong: string[] = [];
        for (const [i, text] of CASES.entries()) {
          const id = (await page.evaluate(`document.querySelector('[data-field="mixed_${i}"]').id`)) as string;
          const label = await visualOrders(page, `label[for="${id}"]`, text);
          if (label.shown !== label.isolated) wrong.push(`label "${text}": ${label.shown} ≠ ${label.isolated}`);
          // Letters in a number field: the error, a sentence of the page's language with the label in it.
          await page.locator(`#${id}`).fill('abc');
          await page.locator(`#${id}`).press('Tab');
          await page.locator(`#${id}-error`).waitFor();
          const error = await visualOrders(page, `#${id}-error`, text);
          if (error.shown !== error.isolated) wrong.push(`error with "${text}": ${error.shown} ≠ ${error.isolated}`);
        }
        // The table's strings typed as values (a text field of the form) run in their own direction.
        for (const c of MIXED_DIRECTION) {
          await page.locator('[data-field="tenant_name"]').fill(c.text);
          const value = (await page.evaluate(`(() => { const el = document.querySelector('[data-field="tenant_name"]'); return getComputedStyle(el).direction + ' ' + el.dir; })()`)) as string;
          assert.equal(value, 'rtl auto', `${c.name}: the input takes the value's direction`);
          const marker = (await page.evaluate(`document.querySelector('[data-field="tenant_name"]').id`)) as string;
          const shown = await visualOrders(page, `.marker[data-for="${marker}"] .marker-text`, c.text);
          if (shown.shown !== shown.isolated) wrong.push(`value "${c.text}" on the document: ${shown.shown} ≠ ${shown.isolated}`);
        }
        await screenshot(page, path.join(SHOTS, `${lang}.png`), { fullPage: true });
        assert.deepEqual(wrong, []);
        await assertAxeClean(page, `${lang} with errors`);
      } finally {
        await context.close();
      }
    });
  }
});
