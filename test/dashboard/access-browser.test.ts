import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import { EVENT_TYPES } from '../../src/generated/lists.js';
import { FIXTURES_DIR, fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';
import { waitForInk } from '../signing/page-checks.js';
import { checkPage, openWatched, signUpInPage, startBrowserStage, type BrowserStage, type Watched } from './browser-support.js';
import { startReceiver, waitFor } from '../webhooks/support/receiver.js';
import { uniqueEmail } from './support.js';
import { screenshot } from '../pages/chromium.js';

// Issue 37 in Chromium at 1280 and 390 px (test-results/access/): "Forgot password?" and "E-mail me a
// sign-in link" from the sign-in page, the link from the dev outbox, the reset page; what a newcomer
// tripped on: the narrow navigation behind a Menu button, tables that fit a phone, every event type on
// the webhooks page, the builder's labels (names on hover) and the upload's warnings.

const SHOTS = path.resolve('test-results', 'access');

describe('dashboard access and the newcomer fixes in the browser', () => {
  let stage: BrowserStage;
  let browser: Browser;
  let origin: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    stage = await startBrowserStage({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001' }, { worker: true });
    ({ browser, origin } = stage);
  });
  after(() => stage?.close());

  const check = (w: Watched, name: string) => checkPage(w, SHOTS, name);

  /** The one-time link of the newest access e-mail to the address, read from the dev outbox's store. */
  async function linkFor(email: string, kind: 'sign_in_link' | 'password_reset'): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const row = await stage.h.deps.domain.db.selectFrom('messages').select(['text', 'status']).where('to_address', '=', email).where('kind', '=', kind).orderBy('created_at', 'desc').executeTakeFirst();
      if (row?.status === 'delivered') return /(http:\/\/\S+\/dashboard\/(?:link|reset)#[A-Za-z0-9_-]{43})/.exec(row.text)?.[1] ?? assert.fail(row.text);
      await new Promise((r) => setTimeout(r, 100));
    }
    return assert.fail(`no ${kind} message to ${email} was delivered`);
  }

  /** Asks for a link from the sign-in page: the card turns into the e-mail form, then says it was sent. */
  async function askFromSignIn(w: Watched, email: string, button: 'Forgot password?' | 'E-mail me a sign-in link', shot: string): Promise<void> {
    const { page } = w;
    await page.goto(`${origin}/dashboard/login`);
    await page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
    await check(w, `${shot}-sign-in`);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: button }).click();
    const heading = button === 'Forgot password?' ? 'Forgot your password?' : 'E-mail me a sign-in link';
    await page.getByRole('heading', { name: heading }).waitFor();
    assert.equal(await page.getByLabel('E-mail address').inputValue(), email, 'the address typed comes along');
    await check(w, `${shot}-ask`);
    await page.getByRole('button', { name: button === 'Forgot password?' ? 'E-mail me a reset link' : 'E-mail me a sign-in link' }).click();
    await page.getByText(`If a Formsign user has the address ${email}`).waitFor();
    await check(w, `${shot}-sent`);
  }

  async function pageNamed(page: Page, heading: string): Promise<void> {
    await page.getByRole('heading', { name: heading }).first().waitFor();
    await page.waitForTimeout(300);
  }

  it('forgot password: the reset e-mail in the dev outbox, a new password, the other session ended; a sign-in link on a phone', async () => {
    const email = uniqueEmail('forgot');
    // The owner signs up in one browser and stays signed in there.
    const first = await openWatched(browser, origin, 1280);
    await first.page.goto(`${origin}/dashboard/signup`);
    await signUpInPage(first.page, email);
    await check(first, 'templates-empty');

    // In another browser, signed out: "Forgot password?".
    const other = await openWatched(browser, origin, 1280);
    await askFromSignIn(other, email, 'Forgot password?', 'forgot');

    // The dev outbox (of the signed-in browser) shows the e-mail with its link.
    await first.page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Outbox', exact: true }).click();
    await first.page.getByText('Set a new password for your Formsign dashboard').waitFor({ timeout: 30_000 });
    await first.page.getByText('A one-time link to set a new password').waitFor();
    await check(first, 'outbox-reset');
    const link = await linkFor(email, 'password_reset');

    await other.page.goto(link);
    await other.page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    assert.equal(new URL(other.page.url()).hash, '', 'the token leaves the address bar at once');
    await other.page.getByLabel('New password', { exact: true }).fill('short');
    await other.page.getByLabel('The same password again').fill('short');
    await other.page.getByRole('button', { name: 'Save and sign in' }).click();
    await other.page.getByText('Choose a password of at least 10 characters.').waitFor();
    other.problems.splice(0, other.problems.length, ...other.problems.filter((p) => !/400|Failed to load resource/.test(p)));
    await check(other, 'reset-page');
    await other.page.getByLabel('New password', { exact: true }).fill('a new password for ada');
    await other.page.getByLabel('The same password again').fill('a new password for ada');
    await other.page.getByRole('button', { name: 'Save and sign in' }).click();
    await pageNamed(other.page, 'Templates');
    // The first browser's session ended with the reset.
    const session = await first.page.request.get(`${origin}/dashboard/api/session`);
    assert.equal(session.status(), 401);
    first.problems.length = 0;
    await first.context.close();
    await other.context.close();

    // On a phone: "E-mail me a sign-in link", then the link signs in.
    const phone = await openWatched(browser, origin, 390);
    await askFromSignIn(phone, email, 'E-mail me a sign-in link', 'sign-in-link');
    await phone.page.goto(await linkFor(email, 'sign_in_link'));
    await pageNamed(phone.page, 'Templates');
    await phone.context.close();
  });

  it('on a phone every page is one tap away behind Menu, the tables fit, the webhooks page offers every event type; the builder shows labels and the upload warnings', async () => {
    const w = await openWatched(browser, origin, 1280);
    const email = uniqueEmail('newcomer');
    await w.page.goto(`${origin}/dashboard/signup`);
    await signUpInPage(w.page, email);
    const accountId = ((await (await w.page.request.get(`${origin}/dashboard/api/session`)).json()) as { account: { id: string } }).account.id;

    // The IRS 1040 (XFA hybrid, raw topmostSubform names, good labels) through the dashboard's upload.
    await w.page.locator('input[type=file]').setInputFiles(path.join(FIXTURES_DIR, 'irs_f1040_2019_xfa_hybrid.pdf'));
    await w.page.getByRole('button', { name: 'Upload and detect fields' }).click();
    await w.page.locator('.builder').waitFor({ timeout: 90_000 });
    await waitForInk(w.page, '.pdf-canvas');
    const warnings = w.page.getByRole('region', { name: 'What the import found in this PDF' });
    await warnings.getByText(/XFA/).first().waitFor();
    const names = await w.page.locator('.field-list .fl-name').evaluateAll((els) => els.slice(0, 40).map((e) => ({ text: e.textContent ?? '', title: e.getAttribute('title') ?? '' })));
    assert.ok(names.length > 0);
    assert.ok(names.every((n) => !n.text.startsWith('topmostSubform')), `labels shown, not raw names: ${names.slice(0, 5).map((n) => n.text).join(' | ')}`);
    assert.ok(names.some((n) => n.title.startsWith('Field name: topmostSubform[0]')), 'the raw name on hover');
    await screenshot(w.page, path.join(SHOTS, 'builder-1040-1280.png'));

    // Data for the tables: a key, a form sent from a template, usage.
    const key = await createApiKey(stage.h.deps.domain, { accountId, mode: 'test' });
    const m = multipart([{ name: 'file', value: fixture('openoffice_form_example.pdf'), filename: 'contract.pdf' }]);
    const up = await stage.h.app.inject({ method: 'POST', url: '/api/v1/templates', headers: { authorization: `Bearer ${key.key}`, ...m.headers }, payload: m.payload });
    assert.equal(up.statusCode, 201, up.body);
    const created = await stage.h.app.inject({ method: 'POST', url: '/api/v1/forms', headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' }, payload: JSON.stringify({ template_id: (JSON.parse(up.body) as { id: string }).id }) });
    const formId = (JSON.parse(created.body) as { id: string }).id;
    const sent = await stage.h.app.inject({ method: 'POST', url: `/api/v1/forms/${formId}/send`, headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' }, payload: JSON.stringify({ recipients: [{ channel: 'email', email: 'a.very.long.address.for.a.signer@subdomain.example.com', name: 'Ada Lovelace-Byron' }] }) });
    assert.equal(sent.statusCode, 200, sent.body);

    // A webhook with a delivery, so its log (a table) shows too.
    const receiver = await startReceiver();
    const hook = await stage.h.app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' }, payload: JSON.stringify({ url: receiver.url, events: ['form.signed'] }) });
    assert.equal(hook.statusCode, 201, hook.body);
    const hookId = (JSON.parse(hook.body) as { id: string }).id;
    assert.equal((await stage.h.app.inject({ method: 'POST', url: `/api/v1/webhooks/${hookId}/test`, headers: { authorization: `Bearer ${key.key}` } })).statusCode, 200);
    await waitFor('the test event', () => receiver.received.length >= 1, 20_000);
    await receiver.close();

    // Every event type on the webhooks page (one list, src/generated/lists.ts).
    await w.page.goto(`${origin}/dashboard/webhooks`);
    await pageNamed(w.page, 'Your webhooks');
    await w.page.getByRole('button', { name: 'Deliveries' }).click();
    await w.page.locator('.delivery-log tr').filter({ hasText: 'webhook.test' }).waitFor({ timeout: 20_000 });
    const offered = await w.page.locator('.event-choices input[type=checkbox]').evaluateAll((els) => els.map((e) => e.id.replace(/^new-ev-/, '')));
    assert.deepEqual(offered, [...EVENT_TYPES]);
    for (const t of ['form.declined', 'form.voided', 'form.reminded', 'form.deleted'] as const) assert.ok(offered.includes(t), t);
    await check(w, 'webhooks');

    const phone = await openWatched(browser, origin, 390, { storageState: await w.context.storageState() });
    try {
      const { page } = phone;
      await page.goto(`${origin}/dashboard/forms`);
      await pageNamed(page, 'Your forms');
      // The links are behind a Menu button that says so; opened, every page is there.
      const nav = page.getByRole('navigation', { name: 'Dashboard' });
      assert.equal(await nav.isVisible(), false);
      const menu = page.getByRole('button', { name: 'Menu' });
      assert.equal(await menu.getAttribute('aria-expanded'), 'false');
      await menu.click();
      assert.equal(await menu.getAttribute('aria-expanded'), 'true');
      for (const name of ['Forms', 'Templates', 'Webhooks', 'API keys', 'Usage', 'Outbox', 'Settings', 'API reference']) {
        assert.ok(await nav.getByRole('link', { name, exact: true }).isVisible(), `${name} is shown in the menu`);
      }
      await check(phone, 'menu-open');
      await nav.getByRole('link', { name: 'Outbox', exact: true }).click();
      await pageNamed(page, 'Dev outbox');
      assert.equal(await nav.isVisible(), false, 'the menu closes on navigation');

      const pages: Array<[string, string, string]> = [
        ['forms', '/dashboard/forms', 'Your forms'],
        ['form', `/dashboard/forms/${formId}`, 'Timeline'],
        ['templates', '/dashboard/templates', 'Your templates'],
        ['keys', '/dashboard/keys', 'API keys'],
        ['usage', '/dashboard/usage', 'Last 30 days'],
        ['webhooks', '/dashboard/webhooks', 'Your webhooks'],
        ['outbox', '/dashboard/outbox', 'Dev outbox'],
        ['settings', '/dashboard/settings', 'Account'],
      ];
      for (const [name, url, heading] of pages) {
        await page.goto(`${origin}${url}`);
        // The previous page's polls, cut short by leaving it, are not a problem of this page.
        phone.problems.splice(0, phone.problems.length, ...phone.problems.filter((p) => !p.endsWith('net::ERR_ABORTED')));
        await pageNamed(page, heading);
        // Open what holds a table: the webhook's delivery log, the usage day by day.
        if (name === 'webhooks') {
          await page.getByRole('button', { name: 'Deliveries' }).click();
          await page.locator('.delivery-log tr').filter({ hasText: 'webhook.test' }).waitFor({ timeout: 20_000 });
        }
        if (name === 'usage') await page.getByText('The numbers, day by day').click();
        const wide = (await page.locator('.table-wrap').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => `${e.querySelector('th')?.textContent ?? '?'}: ${e.scrollWidth} > ${e.clientWidth}`))) as string[];
        assert.deepEqual(wide, [], `${name}: no table scrolls sideways at 390 px`);
        await check(phone, name);
      }
    } finally {
      await phone.context.close();
      await w.context.close();
    }
  });
});
