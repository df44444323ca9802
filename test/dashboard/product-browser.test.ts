import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createHarness, type Harness } from '../harness.js';
import { CHROMIUM, CHROMIUM_FLAGS } from '../pages/chromium.js';
import { FIXTURES_DIR } from '../shared/fixtures.js';
import { pdfsig } from '../shared/pdf-tools.js';
import { waitForInk } from '../signing/page-checks.js';
import { startReceiver, waitFor } from '../webhooks/support/receiver.js';
import { expectedSignature, signaturesOf } from '../webhooks/support/webhooks.js';
import { PASSWORD, uniqueEmail } from './support.js';
import { freePort } from '../shared/free-port.js';

// The whole product from the browser (issue 24), in Debian's Chromium: sign up → upload a fillable PDF
// → add a signature field → save → a form with prefill → send to an e-mail recipient → the dev outbox →
// follow the signing link → sign → the form's page shows `signed` without a reload → the signed PDF
// downloads and pdfsig says it is valid → a webhook to a loopback receiver → "Send test event" arrives
// and verifies → the delivery log shows it. Every page is screenshot at 1280 and 390 px
// (test-results/product/), checked by axe-core (no serious or critical violation), and any page error,
// console error, failed request or 4xx/5xx fails the test.

const SHOTS = path.resolve('test-results', 'product');
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PDF = path.join(FIXTURES_DIR, 'openoffice_form_example.pdf');

interface Watched {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

describe('the product from the browser', () => {
  let h: Harness;
  let browser: Browser;
  let origin: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    h = await createHarness('sqlite', { env: { BASE_URL: origin, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001' } });
    await h.deps.worker.start();
    await h.app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  });
  after(async () => {
    await browser?.close();
    await h?.close();
  });

  async function open(width: number, storageState?: Awaited<ReturnType<BrowserContext['storageState']>>): Promise<Watched> {
    const context = await browser.newContext({ viewport: { width, height: width < 500 ? 800 : 900 }, deviceScaleFactor: 1, hasTouch: width < 500, acceptDownloads: true, ...(storageState ? { storageState } : {}) });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => {
      // A download is handed to the browser's download manager, which the page sees as aborted.
      if (!r.url().endsWith('/signed-pdf')) problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`);
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

  async function check(w: Watched, name: string): Promise<void> {
    const width = w.page.viewportSize()!.width;
    await w.page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
    await w.page.evaluate(`${AXE}\n;0`);
    const violations = (await w.page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
      r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 3) })))`)) as Array<{ id: string; impact: string; targets: string[] }>;
    assert.deepEqual(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), [], `${name} at ${width}: axe-core serious/critical violations`);
    if (width < 500 && name !== 'builder') {
      const overflow = (await w.page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
      assert.ok(overflow <= 0, `${name}: no horizontal scrolling at ${width} px (overflow ${overflow})`);
    }
    assert.deepEqual(w.problems, [], `${name} at ${width}: no page error, console error or failed request`);
  }

  async function go(w: Watched, link: string): Promise<void> {
    await w.page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: link, exact: true }).click();
  }

  it('sign up, build a template, send a form, sign it from the outbox, watch it turn signed, download and verify it, test a webhook', async () => {
    const w = await open(1280);
    const { page } = w;
    const receiver = await startReceiver();
    try {
      // Sign up.
      await page.goto(`${origin}/dashboard/signup`);
      await page.getByLabel('Company or project name').fill('Lovelace & Co');
      await page.getByLabel('E-mail address').fill(uniqueEmail('product'));
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'No templates yet' }).waitFor();

      // Upload the fillable PDF: the builder opens on its detected fields.
      await page.locator('input[type=file]').setInputFiles(PDF);
      await page.getByRole('button', { name: 'Upload and detect fields' }).click();
      await page.locator('.builder').waitFor({ timeout: 90_000 });
      await waitForInk(page, '.pdf-canvas');
      const boxes = page.locator('.box');
      const detected = await boxes.count();
      assert.ok(detected > 5);
      // No signature field yet: the builder says so.
      await page.getByText('This template has no signature field').waitFor();
      // Choosing a type only chooses it (it used to drop a field as well).
      await page.locator('.palette-item[data-type="signature"]').click();
      await page.waitForTimeout(200);
      assert.equal(await boxes.count(), detected, 'choosing a type adds no field');
      // "Add … to the page" puts one in the middle of the view and asks for its label.
      await page.getByRole('button', { name: 'Add Signature field to the page' }).click();
      await page.locator('.box[data-field="signature_1"]').waitFor();
      assert.equal(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id), 'insp-label', 'the label is asked for');
      await page.keyboard.type('Applicant signature');
      // A second one lands beside the first, not on top of it.
      await page.getByRole('button', { name: 'Add Signature field to the page' }).click();
      await page.locator('.box[data-field="signature_2"]').waitFor();
      const [b1, b2] = [(await page.locator('.box[data-field="signature_1"]').boundingBox())!, (await page.locator('.box[data-field="signature_2"]').boundingBox())!];
      assert.ok(Math.abs(b1.x - b2.x) >= 8 || Math.abs(b1.y - b2.y) >= 8, 'offset from the last');
      await page.locator('.box[data-field="signature_2"]').focus();
      await page.keyboard.press('Delete');
      await page.locator('.box[data-field="signature_2"]').waitFor({ state: 'detached' });
      assert.equal(await page.getByText('This template has no signature field').count(), 0);
      await check(w, 'builder');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('All changes saved').waitFor();

      // A form with prefill, sent to an e-mail recipient.
      await go(w, 'Forms');
      await page.getByRole('heading', { name: 'No forms yet' }).waitFor();
      await check(w, 'forms-empty');
      await page.getByRole('link', { name: 'New form' }).click();
      await page.getByLabel(/^First name/).waitFor();
      await page.getByLabel(/^First name/).fill('Ada');
      await page.getByLabel(/^Last name/).fill('Lovelace');
      await page.getByLabel('E-mail address').fill('ada@example.com');
      await page.getByLabel(/^Name/).fill('Ada Lovelace');
      await check(w, 'new-form');
      await page.getByRole('button', { name: 'Create and send' }).click();
      await page.locator('.form-status [data-status="sent"]').waitFor();
      const formId = /\/dashboard\/forms\/(form_\w+)$/.exec(page.url())?.[1];
      assert.ok(formId, page.url());
      assert.match(await page.locator('main').innerText(), /Ada Lovelace[\s\S]*ada@example\.com/);
      await page.locator('.timeline').getByText('form.sent').waitFor();
      await check(w, 'form-sent');

      // The dev outbox has the message and its signing link.
      await go(w, 'Outbox');
      const message = page.locator('.message').filter({ hasText: 'ada@example.com' });
      await message.waitFor();
      await message.getByRole('button', { name: 'Show the e-mail' }).click();
      const frame = page.frameLocator('iframe.mail-frame');
      await frame.locator('body').getByText(/sign/i).first().waitFor();
      await check(w, 'outbox');
      const signingUrl = await message.getByRole('link', { name: 'Open the signing link' }).getAttribute('href');
      assert.match(signingUrl ?? '', new RegExp(`^${origin}/sign/[A-Za-z0-9_-]{43}$`));

      // The form's page stays open (polling) while the recipient signs in another tab.
      await page.goto(`${origin}/dashboard/forms/${formId}`);
      await page.locator('.form-status [data-status="sent"]').waitFor();
      const signer = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const s = await signer.newPage();
        await s.goto(signingUrl!);
        await waitForInk(s, '.page > canvas');
        await s.getByRole('button', { name: 'Add signature' }).first().click();
        await s.locator('#sig-dialog').waitFor({ state: 'visible' });
        const pad = (await s.locator('#pad').boundingBox())!;
        await s.mouse.move(pad.x + 20, pad.y + pad.height / 2);
        await s.mouse.down();
        for (let i = 1; i <= 30; i++) await s.mouse.move(pad.x + 20 + i * ((pad.width - 40) / 30), pad.y + pad.height / 2 + Math.sin(i / 3) * pad.height * 0.3, { steps: 2 });
        await s.mouse.up();
        await s.locator('#sig-apply').click();
        await s.locator('#consent').check();
        await s.locator('#finish').click();
        await s.locator('h1', { hasText: 'You signed' }).waitFor({ timeout: 30_000 });
      } finally {
        await signer.close();
      }
      // No reload: the page asks with its ETag and the status changes in place.
      const navigations: string[] = [];
      page.on('framenavigated', (f) => {
        if (f === page.mainFrame()) navigations.push(f.url());
      });
      await page.locator('.form-status [data-status="signed"]').waitFor({ timeout: 60_000 });
      assert.deepEqual(navigations, [], 'the page was not reloaded');
      await page.locator('.timeline').getByText('form.signed').waitFor();
      await check(w, 'form-signed');

      // The signed PDF downloads, and pdfsig says its signature is valid.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download signed PDF' }).click()]);
      const file = path.join(SHOTS, 'signed.pdf');
      await download.saveAs(file);
      assert.match(download.suggestedFilename(), /^form_\w+-signed\.pdf$/);
      const pdf = fs.readFileSync(file);
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
      assert.match(pdfsig(pdf), /Signature is Valid\./);

      // A webhook to a loopback receiver: the secret once, then "Send test event" arrives, verified.
      await go(w, 'Webhooks');
      await page.getByRole('heading', { name: 'No webhooks yet' }).waitFor();
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByRole('button', { name: 'Add webhook' }).click();
      const secret = (await page.locator('#secret-value').innerText()).trim();
      assert.match(secret, /^whsec_[0-9a-f]{64}$/);
      await check(w, 'webhook-created');
      await page.getByRole('button', { name: 'I have copied it' }).click();
      assert.equal(await page.getByText(secret).count(), 0, 'the secret is shown once');
      await page.getByRole('button', { name: 'Send test event' }).click();
      await waitFor('the test event', () => receiver.received.length >= 1, 20_000);
      const got = receiver.received[0]!;
      const { t, v1 } = signaturesOf(got);
      assert.deepEqual(v1, [expectedSignature(secret, t, got.raw)], 'signed with the secret shown');
      assert.equal(JSON.parse(got.raw.toString()).type, 'webhook.test');
      const row = page.locator('.delivery-log tr').filter({ hasText: 'webhook.test' });
      await row.locator('[data-status="succeeded"]').waitFor({ timeout: 20_000 });
      assert.match(await row.innerText(), /200/);
      await check(w, 'webhooks');

      // The other pages, at 1280.
      await page.getByRole('link', { name: 'Forms', exact: true }).click();
      await page.locator('tbody tr').filter({ hasText: 'signed' }).waitFor();
      await check(w, 'forms');
      await go(w, 'Usage');
      await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
      assert.match(await page.locator('#month-words').innerText(), /of 1,000 calls/);
      await check(w, 'usage');
      await go(w, 'Settings');
      await page.getByLabel('Account name').fill('Lovelace & Daughters');
      await page.getByRole('button', { name: 'Save account' }).click();
      await page.getByText('The account is saved.').waitFor();
      await page.locator('.footer').getByText('Lovelace & Daughters').waitFor();
      await check(w, 'settings');
      await go(w, 'Forms');
      await page.getByRole('link', { name: 'From a description' }).click();
      await page.getByRole('button', { name: 'Make the form' }).click();
      await page.getByRole('link', { name: 'Open the form to send it' }).waitFor({ timeout: 30_000 });
      await waitForInk(page, '.pdf-preview canvas');
      await check(w, 'generate');

      // Every page again at 390 px, signed in with the same session.
      const m = await open(390, await w.context.storageState());
      try {
        const pages: Array<[string, string, string]> = [
          ['forms', '/dashboard/forms', 'Your forms'],
          ['form-signed', `/dashboard/forms/${formId}`, 'Timeline'],
          ['new-form', '/dashboard/forms/new', '3. Who signs'],
          ['generate', '/dashboard/forms/generate', 'New form from a description'],
          ['webhooks', '/dashboard/webhooks', 'Your webhooks'],
          ['usage', '/dashboard/usage', 'Last 30 days'],
          ['outbox', '/dashboard/outbox', 'Dev outbox'],
          ['settings', '/dashboard/settings', 'Account'],
        ];
        for (const [name, url, heading] of pages) {
          await m.page.goto(`${origin}${url}`);
          await m.page.getByRole('heading', { name: heading }).first().waitFor();
          await m.page.waitForTimeout(300);
          await check(m, name);
        }
      } finally {
        await m.context.close();
      }
    } finally {
      await receiver.close();
      await w.context.close();
    }
  });
});
