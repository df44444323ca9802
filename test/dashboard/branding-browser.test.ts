import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sampleTemplate } from '../signing/support.js';
import { checkPage, openWatched, signUpInPage, startBrowserStage, type BrowserStage } from './browser-support.js';
import { uniqueEmail } from './support.js';

// Settings → Branding and the New form's per-recipient choices (issue 42) in Chromium: the live
// preview follows the colour and the logo as they are picked, the save says how the server changed
// them (a light accent darkened, a hostile SVG sanitised), and the dashboard takes the brand at once
// (its logo in the top bar). The New form offers each recipient a role, a language, a check and a
// meaning, and the message, subject and expiry of the send. Screenshots at 1280 and 390 px in
// test-results/branding/, axe-clean, no error seen.

const SHOTS = path.resolve('test-results', 'branding');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 32" onload="alert(1)"><rect width="120" height="32" rx="6" fill="#0b5cad"/><text x="12" y="22" fill="#ffffff" font-size="16" font-family="sans-serif">ACME</text></svg>';

describe('branding and the New form in the dashboard', () => {
  let stage: BrowserStage;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    stage = await startBrowserStage();
  });
  after(() => stage?.close());

  it('sets a brand with a live preview, then sends with roles, languages, a check and a message', async () => {
    const { browser, origin } = stage;
    const w = await openWatched(browser, origin, 1280);
    const { page } = w;
    const logoFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'brand-')), 'logo.svg');
    fs.writeFileSync(logoFile, SVG);
    try {
      await page.goto(`${origin}/dashboard/signup`);
      await signUpInPage(page, uniqueEmail('brand'));
      await page.goto(`${origin}/dashboard/settings`);
      await page.getByRole('heading', { name: 'Branding' }).waitFor();
      await page.getByLabel('Sender name').fill('Acme Homes');
      await page.getByLabel('Use my colour').check();
      await page.getByLabel('Accent colour as hex').fill('#ffcc00');
      await page.getByLabel(/^Logo/).setInputFiles(logoFile);
      const preview = page.getByRole('figure', { name: /Preview/ });
      await preview.locator('img').waitFor();
      assert.match(await preview.innerText(), /Acme Homes/);
      // The preview shows at once the colour the pages will use: the typed one, darkened by the server's rule.
      await page.getByText('#ffcc00 is too light to read on the pages: #856a00 will be used').waitFor();
      assert.equal(await page.evaluate('getComputedStyle(document.querySelector(".brand-preview-button")).backgroundColor'), 'rgb(133, 106, 0)');
      await page.getByLabel('Accent colour as hex').fill('#0b5cad');
      assert.equal(await page.evaluate('getComputedStyle(document.querySelector(".brand-preview-button")).backgroundColor'), 'rgb(11, 92, 173)', 'a colour that reads is used as it is');
      await page.getByLabel('Accent colour as hex').fill('#ffcc00');
      await page.getByRole('button', { name: 'Save branding' }).click();
      await page.getByText(/The branding is saved\./).waitFor();
      const saved = await page.getByText(/The branding is saved\./).innerText();
      assert.match(saved, /#ffcc00 is too light to read on the pages \(4\.5:1 is needed\); it was darkened to #[0-9a-f]{6} \(\d\.\d+:1 on white\)/);
      assert.match(saved, /onload \(event handler\)/);
      assert.equal(await page.evaluate('getComputedStyle(document.querySelector(".brand-preview-button")).backgroundColor'), 'rgb(133, 106, 0)', 'after the save, the colour used');
      await page.locator('header img.brand-logo').waitFor();
      assert.match(await page.locator('header').innerText(), /Acme Homes/);
      await checkPage(w, SHOTS, 'settings-branding');

      // A template for the account just signed up (one signer: the cc takes slot 2, which has no fields).
      const session = (await (await page.request.get(`${origin}/dashboard/api/session`)).json()) as { account: { id: string } };
      const templateId = await sampleTemplate(stage.h, { accountId: session.account.id, mode: 'test' });
      await page.goto(`${origin}/dashboard/forms/new?template=${templateId}`);
      await page.getByRole('heading', { name: '3. Who signs' }).waitFor();
      await page.getByLabel('E-mail address').fill('ada@example.com');
      await page.getByLabel('Language').selectOption('de');
      await page.getByLabel('Check before opening').selectOption('access_code');
      await page.getByLabel('Access code').fill('blue-harbour-42');
      await page.getByRole('button', { name: 'Add a recipient' }).click();
      await page.getByLabel('E-mail address').nth(1).fill('office@example.com');
      await page.getByLabel('Role').nth(1).selectOption('cc');
      await page.getByLabel(/Message to the recipients/).fill('Hello,\nplease sign by Friday.');
      await page.getByLabel(/E-mail subject/).fill('Your lease');
      await page.getByLabel('Links work for (days)').fill('7');
      await checkPage(w, SHOTS, 'new-form-sending');
      await page.getByRole('button', { name: 'Create and send' }).click();
      await page.locator('.form-status [data-status="sent"]').waitFor();
      const formId = /\/dashboard\/forms\/(form_\w+)$/.exec(page.url())?.[1];
      assert.ok(formId);
      const form = (await (await page.request.get(`${origin}/dashboard/api/test/forms/${formId}`)).json()) as { expires_at: string; sent_at: string; recipients: Array<{ role: string; locale: string | null; message: string | null }> };
      assert.deepEqual(form.recipients.map((r) => [r.role, r.locale, r.message]), [['signer', 'de', 'Hello,\nplease sign by Friday.'], ['cc', null, 'Hello,\nplease sign by Friday.']]);
      assert.equal(Date.parse(form.expires_at) - Date.parse(form.sent_at), 7 * 86_400_000);
      assert.match(await page.locator('main').innerText(), /Copy \(cc\)/);

      const m = await openWatched(browser, origin, 390, { storageState: await w.context.storageState() });
      try {
        for (const [name, url, heading] of [['settings-branding', '/dashboard/settings', 'Branding'], ['new-form-sending', `/dashboard/forms/new?template=${templateId}`, '3. Who signs']] as const) {
          await m.page.goto(`${origin}${url}`);
          await m.page.getByRole('heading', { name: heading }).waitFor();
          await m.page.waitForTimeout(300);
          await checkPage(m, SHOTS, name);
        }
      } finally {
        await m.context.close();
      }
    } finally {
      await w.context.close();
    }
  });
});
