import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { openBrowserHarness, requestsAway, screenshot, type BrowserHarness } from './chromium.js';

// The pages in a real browser: they render, log no console error (a CSP violation is one), and make
// no request to anything but this server. Screenshots (TEST_SCREENSHOTS=1, test/pages/chromium.ts) go to
// PAGE_SHOTS_DIR when set (to look at them), else to a folder removed at the end.

describe('pages in Chromium', () => {
  let b: BrowserHarness;
  let origin: string;
  const shots = process.env.PAGE_SHOTS_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-shots-'));

  before(async () => {
    b = await openBrowserHarness();
    origin = b.origin;
  });
  after(async () => {
    await b?.close();
    if (!process.env.PAGE_SHOTS_DIR) fs.rmSync(shots, { recursive: true, force: true });
  });

  /** Opens a page and records what it logged and asked for. */
  async function visit(url: string, settle: (page: Page) => Promise<void>) {
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    const res = await page.goto(`${origin}${url}`, { waitUntil: 'networkidle' });
    await settle(page);
    return { page, context, problems, requests, status: res?.status(), headers: res ? await res.allHeaders() : {} };
  }

  function assertStaysHome(requests: string[]) {
    assert.deepEqual(requestsAway(origin, requests), [], 'no request leaves the server');
  }

  it('/ renders the home page with its stylesheet, no console error, nothing fetched elsewhere', async () => {
    const v = await visit('/', async () => undefined);
    try {
      assert.equal(v.status, 200);
      assert.match(v.headers['content-security-policy'] ?? '', /default-src 'none'/);
      assert.equal(await v.page.locator('h1').innerText(), 'Formsign');
      assert.ok(await v.page.locator('a[href="/docs"]').count() > 0, 'links to /docs');
      assert.ok(await v.page.locator('a[href="/healthz"]').count() > 0, 'links to /healthz');
      assert.ok(await v.page.locator('a[href="/dashboard"]').count() > 0, 'links to the dashboard');
      // The stylesheet applied (a blocked or missing one would leave the default white background).
      const bg = await v.page.locator('body').evaluate((body) => (body.ownerDocument.defaultView as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(body).backgroundColor);
      assert.notEqual(bg, 'rgba(0, 0, 0, 0)');
      assert.ok((await v.page.locator('table.ops tbody tr').count()) >= 5, 'the operations table lists the served operations');
      await screenshot(v.page, path.join(shots, 'home.png'), { fullPage: true });
      assert.deepEqual(v.problems, []);
      assertStaysHome(v.requests);
    } finally {
      await v.context.close();
    }
  });

  it('/docs renders the API reference from the served document, offline and without CSP errors', async () => {
    const v = await visit('/docs', async (page) => {
      await page.locator('h1', { hasText: 'Formsign API' }).waitFor({ timeout: 20_000 });
    });
    try {
      assert.equal(v.status, 200);
      assert.match(v.headers['content-security-policy'] ?? '', /script-src 'self';/);
      assert.ok(v.requests.some((u) => u === `${origin}/docs/openapi.json`), 'the spec came from this server');
      await screenshot(v.page, path.join(shots, 'docs.png'));
      // An operation's page, reached from the sidebar, and the search (it runs in a blob: worker).
      await v.page.getByText('templates', { exact: true }).first().click();
      await v.page.getByText('List templates').first().click();
      await v.page.getByText('/api/v1/templates', { exact: true }).first().waitFor({ timeout: 10_000 });
      await screenshot(v.page, path.join(shots, 'docs-operation.png'));
      // A request body with nested schemas, one of them expanded.
      await v.page.getByText('forms', { exact: true }).first().click();
      await v.page.getByText('Create a form from a template').first().click();
      await v.page.getByText('recipients', { exact: true }).first().click();
      await v.page.waitForTimeout(500);
      await v.page.keyboard.press('Control+k');
      await v.page.keyboard.type('forms');
      await v.page.waitForTimeout(1500);
      await screenshot(v.page, path.join(shots, 'docs-search.png'));
      assert.deepEqual(v.problems, []);
      assertStaysHome(v.requests);
    } finally {
      await v.context.close();
    }
  });

  it('/ and /docs fit a 375 px phone: nothing wider than the screen, the titles whole (screenshots at 1280 and 375 px)', async () => {
    for (const [url, heading] of [['/', 'Formsign'], ['/docs', 'Formsign API']] as const) {
      for (const width of [1280, 375]) {
        const context = await b.browser.newContext({ viewport: { width, height: width < 500 ? 800 : 900 }, deviceScaleFactor: 1, isMobile: width < 500, hasTouch: width < 500 });
        try {
          const page = await context.newPage();
          await page.goto(`${origin}${url}`, { waitUntil: 'networkidle' });
          const title = page.locator('h1', { hasText: heading }).first();
          await title.waitFor({ timeout: 20_000 });
          const name = `${url === '/' ? 'home' : 'docs'}-${width}`;
          await screenshot(page, path.join(shots, `${name}.png`), { fullPage: url === '/' });
          const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
          assert.ok(scrollWidth <= width, `${name}: the page is ${scrollWidth} px wide`);
          // The title breaks between words only: no word of it spreads over two lines. (Browser code as
          // a string: the tests compile without the DOM's types.)
          const words = (await page.evaluate(`(() => {
            const h = [...document.querySelectorAll('h1')].find((e) => e.textContent.includes(${JSON.stringify(heading)}));
            const range = document.createRange();
            const out = [];
            const walker = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              for (const m of n.textContent.matchAll(/\\S+/g)) {
                range.setStart(n, m.index);
                range.setEnd(n, m.index + m[0].length);
                out.push({ word: m[0], lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size });
              }
            }
            return out;
          })()`)) as Array<{ word: string; lines: number }>;
          assert.ok(words.length > 0, `${name}: the title has words`);
          assert.deepEqual(words.filter((w) => w.lines > 1), [], `${name}: no word of the title is broken across lines`);
          const box = (await title.boundingBox())!;
          assert.ok(box.x >= 0 && box.x + box.width <= width, `${name}: the title is inside the screen (${box.x}…${box.x + box.width})`);
        } finally {
          await context.close();
        }
      }
    }
  });

  it('an unknown page and a signing link answer the HTML 404 page, styled', async () => {
    for (const url of ['/sign/abc123', '/no-such-page']) {
      const v = await visit(url, async () => undefined);
      try {
        assert.equal(v.status, 404, url);
        assert.equal(await v.page.locator('.status').innerText(), '404');
        assert.match(await v.page.locator('.request-id').innerText(), /req_[0-9a-f]{32}/);
        await screenshot(v.page, path.join(shots, `${url.split('/')[1]}-404.png`));
        // Chromium logs the 404 of the document itself; nothing else may appear.
        assert.deepEqual(v.problems.filter((p) => !/status of 404/.test(p)), [], url);
        assertStaysHome(v.requests);
      } finally {
        await v.context.close();
      }
    }
  });
});
