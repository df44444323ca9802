import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Route } from 'playwright-core';
import { openBrowserHarness, PHONE_CONTEXT, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { waitForDocument } from './page-checks.js';
import { f1040Template, FIRST } from './f1040-form.js';
import { sendTo } from './support.js';

// A fast first page on a phone (issue 43 item 4): with the PDF held back (its request never answered),
// the 1040's page boxes already have the server's page size, the first page shows as the server's
// picture with this signer's markers on it at their rectangles, guided mode opens a field from a tap on
// its box, and the page says it is usable (formsign:interactive). Then, the PDF let through, pdf.js
// draws the page crisp in the same box (it does not move). Screenshots: test-results/first-page/.

const SHOTS = path.resolve('test-results', 'first-page');

interface Box { width: number; height: number; top: number; left: number }

describe('the first page before the PDF arrives (phone, 1040)', () => {
  let b: BrowserHarness;
  let templateId: string;
  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    b = await openBrowserHarness();
    templateId = await f1040Template(b.h);
  });
  after(() => b?.close());

  it('boxes at the server size, the picture and markers, usable, then the same box drawn crisp', async () => {
    const f = await sendTo(b.h, b.h.actors.aTest, templateId, ['first-page@example.com']);
    const context = await b.browser.newContext(PHONE_CONTEXT);
    const problems: string[] = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      const held: Route[] = [];
      await context.route('**/document.pdf', (route) => void held.push(route));
      await page.goto(`${b.origin}/sign/${f.tokens[0]}`, { waitUntil: 'load' });
      // A function, not a string: a string predicate is re-run with eval, which the page's CSP forbids.
      await page.waitForFunction(() => performance.getEntriesByName('formsign:interactive').length > 0, undefined, { timeout: 60_000 });
      await screenshot(page, path.join(SHOTS, '1-first-paint-pdf-held.png'));
      const before = (await page.evaluate(`(() => {
        const box = (el) => { const r = el.getBoundingClientRect(); return { width: r.width, height: r.height, top: r.top + scrollY, left: r.left + scrollX }; };
        const pages = [...document.querySelectorAll('#pages > .page')];
        const img = pages[0].querySelector('img.page-image');
        return {
          pages: pages.map(box),
          drawn: document.querySelectorAll('.page.drawn').length,
          picture: { natural: img.naturalWidth, shown: getComputedStyle(img).display !== 'none', box: box(img) },
          markers: document.querySelectorAll('.page[data-page="1"] > .marker').length,
          guided: document.body.classList.contains('guided-mode'),
        };
      })()`)) as { pages: Box[]; drawn: number; picture: { natural: number; shown: boolean; box: Box }; markers: number; guided: boolean };
      assert.ok(held.length >= 1, 'the PDF was asked for and held back');
      assert.equal(before.drawn, 0, 'pdf.js has drawn nothing: the PDF has not arrived');
      // Two boxes, each with the 1040's page size from the server (612 × 792 pt).
      assert.equal(before.pages.length, 2);
      for (const p of before.pages) assert.ok(Math.abs(p.height / p.width - 792 / 612) < 0.005, `aspect ${p.width}×${p.height}`);
      // Guided mode's zoom: 1.75 px per point.
      assert.ok(before.guided);
      assert.ok(Math.abs(before.pages[0]!.width - 612 * 1.75) < 1, `guided width ${before.pages[0]!.width}`);
      // The first page is the server's picture, filling its box.
      assert.equal(before.picture.natural, 1071);
      assert.ok(before.picture.shown);
      assert.deepEqual(before.picture.box, before.pages[0]);
      // This signer's markers on page 1, placed from the server's rectangles: the first-name box's place.
      const fields = JSON.parse((await page.locator('#signing').getAttribute('data-config'))!) as { fields: Array<{ id: string; name: string; page: number; x: number; y: number; width: number; height: number }> };
      assert.equal(before.markers, fields.fields.filter((x) => x.page === 1).length);
      const first = fields.fields.find((x) => x.name === FIRST)!;
      const marker = (await page.evaluate(`(() => { const m = document.querySelector('.marker[data-for="${first.id}"]'); const r = m.getBoundingClientRect(); const p = m.parentElement.getBoundingClientRect(); return { left: r.left - p.left, top: r.top - p.top }; })()`)) as { left: number; top: number };
      assert.ok(Math.abs(marker.left - first.x * 1.75) < 1.5 && Math.abs(marker.top - first.y * 1.75) < 1.5, `marker at ${JSON.stringify(marker)} for ${first.x},${first.y}`);
      // Usable: a tap on the box opens its field in the sheet, which takes typing.
      await page.evaluate(`document.querySelector('.marker[data-for="${first.id}"]').scrollIntoView({ block: 'center', inline: 'center' })`);
      await page.locator(`.marker[data-for="${first.id}"]`).tap();
      await page.locator(`#sheet [data-field="${FIRST}"]`).fill('Ada');
      assert.equal(await page.locator(`.marker[data-for="${first.id}"] .marker-text`).innerText(), 'Ada');

      // The PDF let through: pdf.js draws the page crisp in the same box, and the picture goes.
      for (const route of held) await route.continue();
      await context.unroute('**/document.pdf');
      await page.locator('.page[data-page="1"].drawn').waitFor({ timeout: 90_000 });
      await waitForDocument(page, /2/, 90_000);
      const afterLoad = (await page.evaluate(`(() => {
        const p = document.querySelector('.page[data-page="1"]');
        const r = p.getBoundingClientRect();
        const c = p.querySelector('canvas');
        return { width: r.width, height: r.height, pixels: c.width, picture: getComputedStyle(p.querySelector('img.page-image')).display };
      })()`)) as { width: number; height: number; pixels: number; picture: string };
      assert.equal(afterLoad.width, before.pages[0]!.width);
      assert.equal(afterLoad.height, before.pages[0]!.height);
      assert.ok(afterLoad.pixels >= afterLoad.width * 2 - 2, `crisp: ${afterLoad.pixels} px for ${afterLoad.width} CSS px`);
      assert.equal(afterLoad.picture, 'none');
      await screenshot(page, path.join(SHOTS, '2-after-load.png'));
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
