import type { Page } from 'playwright-core';
import { createLoginLink, createUser } from '../../src/domain/users/manage-users.js';
import type { BrowserStage } from './browser-support.js';
import { uniqueEmail } from './support.js';

// What the builder's Chromium tests share (beside browser-support.ts's stage): a page signed in to
// account A's dashboard by a login link, collecting what went wrong.

/** A new browser context `width` px wide, signed in to account A's test dashboard by a login link; `problems` collects console errors, page errors and 4xx/5xx answers. */
export async function signedInDashboard(d: BrowserStage, width: number, tag: string): Promise<{ page: Page; problems: string[]; close(): Promise<void> }> {
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
