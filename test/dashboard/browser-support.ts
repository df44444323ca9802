import assert from 'node:assert/strict';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createHarness, type Harness } from '../harness.js';
import { CHROMIUM, CHROMIUM_FLAGS, screenshot } from '../pages/chromium.js';
import { freePort } from '../shared/free-port.js';
import { assertAxeClean } from '../signing/page-checks.js';
import { PASSWORD } from './support.js';

// What the dashboard's Chromium tests share: a page watched for errors, the per-page check (a
// screenshot, axe-core, no sideways scrolling on a phone, no error seen), the sign-up steps and a server
// on a free port (the page's origin is the server's BASE_URL, which sign-in accepts alone).

export interface Watched {
  context: BrowserContext;
  page: Page;
  /** Page errors, console errors, failed requests, 4xx/5xx answers, requests to other origins. */
  problems: string[];
}

export interface OpenOptions {
  storageState?: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;
  acceptDownloads?: boolean | undefined;
  /** A request that may fail without it being a problem (a download, handed to the download manager, looks aborted). */
  mayAbort?: ((url: string) => boolean) | undefined;
}

/** A new browser context at `width` px whose page reports every problem it meets. */
export async function openWatched(browser: Browser, origin: string, width: number, opts: OpenOptions = {}): Promise<Watched> {
  const context = await browser.newContext({
    viewport: { width, height: width < 500 ? 800 : 900 }, deviceScaleFactor: 1, hasTouch: width < 500,
    ...(opts.acceptDownloads ? { acceptDownloads: true } : {}), ...(opts.storageState ? { storageState: opts.storageState } : {}),
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => {
    // pdf.js's own fetches (standard fonts, cMaps) are cancelled when the page leaves a document
    // mid-render, which a quick test does on a loaded machine: not a failure of the page.
    if (r.failure()?.errorText === 'net::ERR_ABORTED' && /\/pdfjs-[^/]+\//.test(r.url())) return;
    if (!opts.mayAbort?.(r.url())) problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:') && u !== 'about:srcdoc') problems.push(`request away: ${u}`);
  });
  return { context, page, problems };
}

/**
 * A screenshot of the whole page into `shots` (`name-width.png`), then: axe-core finds no serious or
 * critical violation, a phone-wide page does not scroll sideways (the builder's pages may), and no
 * problem was seen.
 */
export async function checkPage(w: Watched, shots: string, name: string): Promise<void> {
  const width = w.page.viewportSize()!.width;
  await screenshot(w.page, path.join(shots, `${name}-${width}.png`), { fullPage: true });
  await assertAxeClean(w.page, `${name} at ${width}`);
  if (width < 500 && !name.startsWith('builder')) {
    const overflow = (await w.page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
    assert.ok(overflow <= 0, `${name}: no horizontal scrolling at ${width} px (overflow ${overflow})`);
  }
  assert.deepEqual(w.problems, [], `${name} at ${width}: no page error, console error or failed request`);
}

/** Fills and sends the sign-up form the page shows; the templates page follows. */
export async function signUpInPage(page: Page, email: string, accountName = 'Lovelace & Co'): Promise<void> {
  await page.getByLabel('Company or project name').fill(accountName);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'No templates yet' }).waitFor();
}

export interface BrowserStage {
  h: Harness;
  browser: Browser;
  /** The server's address and BASE_URL. */
  origin: string;
  close(): Promise<void>;
}

/** A server on a free loopback port (SQLite; the worker started when asked) and Chromium. */
export async function startBrowserStage(env: Record<string, string> = {}, opts: { worker?: boolean } = {}): Promise<BrowserStage> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const h = await createHarness('sqlite', { env: { BASE_URL: origin, ...env } });
  if (opts.worker) await h.deps.worker.start();
  await h.app.listen({ port, host: '127.0.0.1' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  return {
    h, browser, origin,
    async close() {
      await browser.close();
      await h.close();
    },
  };
}

/** Follows a link of the dashboard's navigation; on a narrow screen the links are behind Menu, opened first. */
export async function followNav(page: Page, name: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'false') await menu.click();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true }).click();
}
