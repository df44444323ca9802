import { chromium, type Browser, type Page } from 'playwright-core';
import { createLoginLink, createUser } from '../../src/domain/users/manage-users.js';
import { createHarness, type Harness } from '../harness.js';
import { CHROMIUM, CHROMIUM_FLAGS } from '../pages/chromium.js';
import { freePort } from '../shared/free-port.js';
import { uniqueEmail } from './support.js';

// What the builder's Chromium tests share: a server listening on a free port (its own BASE_URL) with
// Chromium beside it, and a page signed in to account A's dashboard that collects what went wrong.

export interface DashboardBrowser {
  h: Harness;
  browser: Browser;
  origin: string;
  close(): Promise<void>;
}

export async function openDashboardBrowser(): Promise<DashboardBrowser> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const h = await createHarness('sqlite', { env: { BASE_URL: origin } });
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

/** A new browser context `width` px wide, signed in to account A's test dashboard by a login link; `problems` collects console errors, page errors and 4xx/5xx answers. */
export async function signedInDashboard(d: DashboardBrowser, width: number, tag: string): Promise<{ page: Page; problems: string[]; close(): Promise<void> }> {
  const context = await d.browser.newContext({ viewport: { width, height: width < 500 ? 844 : 800 }, deviceScaleFactor: 1, hasTouch: width < 500 });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.request().method()} ${r.url()}`); });
  const user = await createUser(d.h.deps.domain, { accountId: d.h.actors.aTest.partition.accountId, email: uniqueEmail(tag) });
  const link = await createLoginLink(d.h.deps.domain, user.email);
  await page.goto(`${d.origin}${new URL(link.url).pathname}${new URL(link.url).hash}`);
  await page.getByRole('heading', { name: 'Templates', exact: true }).waitFor();
  return { page, problems, close: () => context.close() };
}
