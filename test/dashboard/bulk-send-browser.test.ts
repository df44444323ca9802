import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { seedTemplate, SEED_FIELDS } from '../shared/seed.js';
import { checkPage, followNav, openWatched, signUpInPage, startBrowserStage, type BrowserStage, type Watched } from './browser-support.js';
import { uniqueEmail } from './support.js';

// The dashboard's Bulk send page (issue 42) in Debian's Chromium: a CSV uploaded, its first rows shown
// mapped to the template's fields and its bad line reported by number (the server's own checks), sent,
// the progress watched to the end (the worker runs), and the per-row results downloaded as a CSV.
// Screenshots at 1280 and 390 px (test-results/bulk-send/), axe-core clean, no page or console error.

const SHOTS = path.resolve('test-results', 'bulk-send');
const FIELDS = SEED_FIELDS.map((f) => ({ ...f, label: f.name === 'full_name' ? 'Full name' : 'Contact e-mail' }));
const CSV = [
  'name,prefill.full_name,prefill.email,recipient.1.email,recipient.1.name',
  'Lease 1,Ada Lovelace,ada@example.com,ada@example.com,Ada',
  'Lease 2,Grace Hopper,,grace@example.com,Grace',
  'Lease 3,Edsger Dijkstra,,edsger@example.com,',
  'Lease 4,Bad Address,,not-an-address,',
  'Lease 5,Alan Turing,,alan@example.com,Alan',
  'Lease 6,Barbara Liskov,,barbara@example.com,',
].join('\n');

describe('bulk send in the browser', () => {
  let stage: BrowserStage;
  let browser: Browser;
  let origin: string;
  let csvPath: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    csvPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-bulk-')), 'leases.csv');
    fs.writeFileSync(csvPath, `${CSV}\n`);
    stage = await startBrowserStage({}, { worker: true });
    ({ browser, origin } = stage);
  });
  after(() => stage?.close());

  const check = (w: Watched, name: string) => checkPage(w, SHOTS, name);

  it('previews a CSV against the template, sends it, shows the progress and downloads the results', async () => {
    const w = await openWatched(browser, origin, 1280, { acceptDownloads: true });
    const { page } = w;
    try {
      await page.goto(`${origin}/dashboard/signup`);
      await signUpInPage(page, uniqueEmail('bulk'));
      const session = (await (await page.request.get(`${origin}/dashboard/api/session`)).json()) as { account: { id: string } };
      await seedTemplate(stage.h, { accountId: session.account.id, mode: 'test' }, 'Lease', new Date().toISOString(), FIELDS);

      await followNav(page, 'Bulk send');
      await page.getByRole('heading', { name: 'Bulk send' }).waitFor();
      await page.getByLabel('CSV file').setInputFiles(csvPath);
      const preview = page.locator('section[aria-labelledby="bulk-preview"]');
      await preview.waitFor();
      assert.deepEqual(await preview.locator('thead th').allInnerTexts(), ['ROW', 'RECIPIENTS', 'FULL NAME', 'CONTACT E-MAIL'].map((t) => t), 'the columns are the template’s fields, by label');
      assert.deepEqual(await preview.locator('tbody tr').first().locator('th, td').allInnerTexts(), ['1', 'ada@example.com', 'Ada Lovelace', 'ada@example.com']);
      assert.equal(await preview.locator('tbody tr').count(), 5, 'the first five rows');
      // sendForm's own answer for that address (its request schema's e-mail format).
      assert.match(await preview.locator('tbody tr').nth(3).innerText(), /Invalid parameter 'recipients\[0\]\.email': must match format "email"/);
      assert.match(await preview.innerText(), /6 rows: 5 will be sent, 1 refused/);
      assert.match(await preview.locator('.row-errors').innerText(), /Row 4: Invalid parameter 'recipients\[0\]\.email'/);
      await check(w, 'bulk-preview');

      await page.getByRole('button', { name: 'Send 5 forms' }).click();
      const progress = page.locator('section[aria-labelledby="bulk-progress"]');
      await progress.getByText('5 sent, 1 failed, 0 to go, of 6 rows').waitFor({ timeout: 60_000 });
      await progress.locator('[data-status="completed"]').waitFor();
      await check(w, 'bulk-progress');

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download results (CSV)' }).click()]);
      const results = fs.readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
      assert.equal(results[0], 'row,status,form_id,error_code,error_message,error_param');
      assert.equal(results.length, 7);
      assert.match(results[1]!, /^1,sent,form_[0-9A-Za-z]{24},,,$/);
      assert.equal(results[4], `4,failed,,parameter_invalid,"Invalid parameter 'recipients[0].email': must match format ""email"".",recipients[0].email`);
      const sent = await page.request.get(`${origin}/dashboard/api/test/forms?limit=20`);
      assert.equal(((await sent.json()) as { data: Array<{ status: string }> }).data.filter((f) => f.status === 'sent').length, 5);

      // The same page at 390 px, signed in with the same session.
      const m = await openWatched(browser, origin, 390, { storageState: await w.context.storageState() });
      try {
        await m.page.goto(`${origin}/dashboard/bulk`);
        await m.page.getByRole('heading', { name: 'Bulk send' }).waitFor();
        // Coming back later: the bulk send is listed, and "Show" brings back its progress and results.
        const recent = m.page.locator('section[aria-labelledby="bulk-earlier"]');
        const row = recent.locator('tbody tr').first();
        await row.waitFor();
        assert.deepEqual((await row.locator('td').allInnerTexts()).slice(1, 6), ['Lease', 'completed', '5', '1', '6']);
        await check(m, 'bulk-recent');
        await row.getByRole('button', { name: /^Show the bulk send of / }).click();
        await m.page.locator('section[aria-labelledby="bulk-progress"]').getByText('5 sent, 1 failed, 0 to go, of 6 rows').waitFor();
        assert.equal(await row.getByText('Shown above').count(), 1);
        await m.page.getByLabel('CSV file').setInputFiles(csvPath);
        await m.page.locator('section[aria-labelledby="bulk-preview"]').waitFor();
        await check(m, 'bulk-preview');
      } finally {
        await m.context.close();
      }
    } finally {
      await w.context.close();
    }
  });
});
