import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { FIXTURES_DIR } from '../shared/fixtures.js';
import { waitForInk } from '../signing/page-checks.js';
import { checkPage, openWatched, signUpInPage, startBrowserStage, type BrowserStage, type Watched } from './browser-support.js';
import { uniqueEmail } from './support.js';

// Issue 24's last gaps in Debian's Chromium: signer roles named in the builder ("Tenant", "Landlord")
// are saved with the template and shown to the sender (each recipient row headed by its role, the
// "Signs as" choices, the form's recipients); Settings sets the signers' default language and the
// embed origins. Each page changed is screenshot at 1280 and 390 px (test-results/roles-settings/),
// axe-core finds no serious or critical violation, and no page or console error is seen.

const SHOTS = path.resolve('test-results', 'roles-settings');
const PDF = path.join(FIXTURES_DIR, 'openoffice_form_example.pdf');

describe('signer roles and settings in the browser', () => {
  let stage: BrowserStage;
  let browser: Browser;
  let origin: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    stage = await startBrowserStage();
    ({ browser, origin } = stage);
  });
  after(() => stage?.close());

  const check = (w: Watched, name: string) => checkPage(w, SHOTS, name);

  /** Takes the expected refusal out of the problems list (it is the test's own, not a fault). */
  function expectProblem(w: Watched, pattern: RegExp): void {
    const at = w.problems.findIndex((p) => pattern.test(p));
    assert.ok(at >= 0, `expected a problem matching ${pattern}: ${w.problems.join('; ')}`);
    w.problems.splice(at, 1);
  }

  it('names roles in the builder, shows them when sending, sets the default language and an embed origin', async () => {
    const w = await open(1280);
    const { page } = w;
    try {
      await page.goto(`${origin}/dashboard/signup`);
      await signUpInPage(page, uniqueEmail('roles'));

      // The builder: name signer 1, move a field to signer 2, name it; the inspector offers the names.
      await page.locator('input[type=file]').setInputFiles(PDF);
      await page.getByRole('button', { name: 'Upload and detect fields' }).click();
      await page.locator('.builder').waitFor({ timeout: 90_000 });
      await waitForInk(page, '.pdf-canvas');
      const templateId = /\/dashboard\/templates\/(tmpl_\w+)$/.exec(page.url())?.[1];
      assert.ok(templateId, page.url());
      assert.equal(await page.getByLabel('Role of signer 2').count(), 0, 'one slot while every field is signer 1');
      await page.getByLabel('Role of signer 1').fill('Tenant');
      await page.locator('.palette-item[data-type="signature"]').click();
      await page.getByRole('button', { name: 'Add Signature field to the page' }).click();
      await page.locator('.box[data-field="signature_1"]').waitFor();
      await page.locator('#insp-signer').selectOption('2');
      await page.getByLabel('Role of signer 2').fill('Landlord');
      assert.deepEqual(await page.locator('#insp-signer option').allInnerTexts(), ['Tenant', 'Landlord', 'Signer 3']);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('All changes saved').waitFor();
      await check(w, 'builder-roles');
      const saved = await page.request.get(`${origin}/dashboard/api/test/templates/${templateId}`);
      assert.deepEqual(((await saved.json()) as { signers: unknown }).signers, [{ slot: 1, role: 'Tenant' }, { slot: 2, role: 'Landlord' }]);
      await page.reload();
      await page.locator('.builder').waitFor();
      assert.equal(await page.getByLabel('Role of signer 2').inputValue(), 'Landlord', 'the names come back with the template');

      // Sending: each recipient row says whose role it signs.
      await page.goto(`${origin}/dashboard/forms/new?template=${templateId}`);
      const roles = page.locator('.recipient-role');
      await roles.first().waitFor();
      assert.deepEqual(await roles.allInnerTexts(), ['Tenant']);
      assert.match(await page.locator('main').innerText(), /Tenant \(\d+ fields\), Landlord \(1 fields\)/);
      await page.getByRole('button', { name: 'Add a recipient' }).click();
      assert.deepEqual(await roles.allInnerTexts(), ['Tenant', 'Landlord']);
      const signsAs = page.getByLabel('Signs as');
      assert.deepEqual(await signsAs.first().locator('option').allInnerTexts(), ['Next in order', 'Tenant', 'Landlord']);
      // Choosing Landlord for the first row makes the second the Tenant, as the server will assign it.
      await signsAs.first().selectOption('2');
      assert.deepEqual(await roles.allInnerTexts(), ['Landlord', 'Tenant']);
      await signsAs.first().selectOption('');
      await page.getByLabel('E-mail address').nth(0).fill('tenant@example.com');
      await page.getByLabel('E-mail address').nth(1).fill('landlord@example.com');
      await check(w, 'new-form-roles');
      await page.getByRole('button', { name: 'Create and send' }).click();
      await page.locator('.form-status [data-status="sent"]').waitFor();
      const formId = /\/dashboard\/forms\/(form_\w+)$/.exec(page.url())?.[1];
      const rows = page.locator('section[aria-labelledby="recipients-title"] tbody tr');
      await rows.filter({ hasText: 'Landlord' }).waitFor();
      assert.match(await rows.filter({ hasText: 'tenant@example.com' }).innerText(), /Tenant/);
      assert.match(await rows.filter({ hasText: 'landlord@example.com' }).innerText(), /Landlord/);
      await check(w, 'form-roles');

      // Settings: the signers' default language, then the embed origins (a bad one refused in words).
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Settings', exact: true }).click();
      const language = page.getByLabel('Default language');
      await language.waitFor();
      assert.equal(await language.locator('option').count(), 22);
      assert.equal(await language.inputValue(), 'en');
      await language.selectOption('de');
      await page.getByRole('button', { name: 'Save language' }).click();
      await page.getByText('The default language is saved.').waitFor();
      const locale = await page.request.get(`${origin}/dashboard/api/settings/locale`);
      assert.equal(((await locale.json()) as { locale: string }).locale, 'de');

      await page.getByText('No origins yet.').waitFor();
      await page.getByLabel('Add an origin').fill('https://app.example.com/sign');
      await page.getByRole('button', { name: 'Add origin' }).click();
      await page.locator('#embed-title').locator('..').locator('.field-error').waitFor();
      expectProblem(w, /^400 POST .*\/embed\/origins$/);
      expectProblem(w, /^console: Failed to load resource: .*400/);
      await page.getByLabel('Add an origin').fill('https://App.Example.com');
      await page.getByRole('button', { name: 'Add origin' }).click();
      await page.getByRole('list', { name: 'Allowed origins' }).getByText('https://app.example.com').waitFor();
      await check(w, 'settings');

      // The same pages at 390 px, signed in with the same session.
      const m = await openWatched(browser, origin, 390, { storageState: await w.context.storageState() });
      try {
        const pages: Array<[string, string, string]> = [
          ['settings', '/dashboard/settings', "Signers' language"],
          ['new-form-roles', `/dashboard/forms/new?template=${templateId}`, '3. Who signs'],
          ['form-roles', `/dashboard/forms/${formId}`, 'Recipients'],
          ['builder-roles', `/dashboard/templates/${templateId}`, 'Signers'],
        ];
        for (const [name, url, heading] of pages) {
          await m.page.goto(`${origin}${url}`);
          await m.page.getByRole('heading', { name: heading }).first().waitFor({ timeout: 30_000 });
          await m.page.waitForTimeout(300);
          await check(m, name);
        }
        assert.equal(await m.page.getByLabel('Role of signer 1').inputValue(), 'Tenant');
      } finally {
        await m.context.close();
      }

      // Removing the origin empties the list again.
      await page.getByRole('button', { name: 'Remove https://app.example.com' }).click();
      await page.getByText('No origins yet.').waitFor();
      assert.deepEqual(w.problems, []);
    } finally {
      await w.context.close();
    }
  });

  function open(width: number): Promise<Watched> {
    return openWatched(browser, origin, width);
  }
});
