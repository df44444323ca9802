import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import type { Actor } from '../harness.js';
import { SIGN_HEADERS, sendTo, strokePng, twoSignerTemplate } from '../signing/support.js';
import { checkPage, openWatched, signUpInPage, startBrowserStage, type BrowserStage, type Watched } from './browser-support.js';
import { uniqueEmail } from './support.js';

// Issue 40 in Debian's Chromium: Settings → data retention; a signed form's page offers "Download
// evidence" (a ZIP), a legal hold placed with a reason and released, and Delete with a confirmation
// naming what will be lost; after it the page shows the tombstone. Screenshots at 1280 and 390 px
// (test-results/data-lifecycle/), axe-core clean, no page or console error.

const SHOTS = path.resolve('test-results', 'data-lifecycle');

describe('data lifecycle in the dashboard', () => {
  let stage: BrowserStage;
  let browser: Browser;
  let origin: string;
  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    stage = await startBrowserStage({}, { worker: true });
    ({ browser, origin } = stage);
  });
  after(() => stage?.close());

  const open = (width: number, storageState?: Awaited<ReturnType<Watched['context']['storageState']>>) =>
    openWatched(browser, origin, width, { storageState, acceptDownloads: true, mayAbort: (url) => url.endsWith('/evidence') });

  it('retention in Settings; on a signed form: evidence download, hold and release, delete with what is lost named; at 1280 and 390 px', async () => {
    const h = stage.h;
    const w = await open(1280);
    const { page } = w;
    try {
      await page.goto(`${origin}/dashboard/signup`);
      await signUpInPage(page, uniqueEmail('lifecycle'));
      const session = (await (await page.request.get(`${origin}/dashboard/api/session`)).json()) as { account: { id: string } };
      const k = await createApiKey(h.deps.domain, { accountId: session.account.id, mode: 'test' });
      const as: Actor = { key: k.key, keyId: k.id, partition: { accountId: session.account.id, mode: 'test' } };
      const templateId = await twoSignerTemplate(h, as.partition);
      const f = await sendTo(h, as, templateId, ['tenant@example.com', 'landlord@example.com']);
      const values = [{ tenant_name: 'Ada Lovelace', tenant_signature: { image: strokePng(), method: 'drawn' } }, { landlord_name: 'Charles Babbage', landlord_signature: { image: strokePng(), method: 'typed' } }];
      for (const [i, token] of f.tokens.entries()) {
        const res = await h.app.inject({ method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ values: values[i], consent: true }) });
        assert.equal(res.statusCode, 200, res.body);
      }
      for (let i = 0; i < 180; i++) {
        if ((await h.request({ url: `/api/v1/forms/${f.formId}`, as })).json<{ status: string }>().status === 'signed') break;
        await new Promise((r) => setTimeout(r, 500));
      }

      // Settings: retention.
      await page.goto(`${origin}/dashboard/settings`);
      await page.getByRole('heading', { name: 'Data retention' }).waitFor();
      await page.getByLabel('Delete for good after').check();
      await page.getByLabel('Days after a form finishes').fill('30');
      await page.getByRole('button', { name: 'Save retention' }).click();
      await page.getByText('Finished forms are deleted 30 days after they finish.').waitFor();
      await check(w, 'settings-retention');

      // The form's page: evidence, hold, delete.
      await page.goto(`${origin}/dashboard/forms/${f.formId}`);
      await page.getByRole('heading', { name: 'Keeping and deleting' }).waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download evidence' }).click()]);
      assert.equal(download.suggestedFilename(), `${f.formId}-evidence.zip`);
      const zip = fs.readFileSync((await download.path())!);
      assert.equal(zip.subarray(0, 2).toString('latin1'), 'PK');
      await page.getByRole('button', { name: 'Place legal hold…' }).click();
      await page.getByLabel(/^Reason/).fill('Dispute 2026-40');
      await check(w, 'form-hold-dialog');
      await page.getByRole('button', { name: 'Place hold' }).click();
      await page.getByText(/On legal hold since .*“Dispute 2026-40”/).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Delete…' }).isDisabled(), true, 'a held form cannot be deleted');
      await check(w, 'form-held');
      await page.getByRole('button', { name: 'Release hold' }).click();
      await page.getByText('The hold is released.').waitFor();
      await page.getByRole('button', { name: 'Delete…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(/2 recipients’ names, e-mail addresses, phone numbers, IP addresses and user agents/).waitFor();
      await dialog.getByText(/the signed PDF and its audit trail/).waitFor();
      await check(w, 'form-delete-dialog');
      await dialog.getByRole('button', { name: 'Delete the form' }).click();
      await page.getByRole('heading', { name: 'Deleted', exact: true }).waitFor();
      await page.getByText(/Signed PDF SHA-256/).waitFor();
      await check(w, 'form-deleted');

      // Phone width: the same pages.
      const m = await open(390, await w.context.storageState());
      try {
        await m.page.goto(`${origin}/dashboard/settings`);
        await m.page.getByRole('heading', { name: 'Data retention' }).waitFor();
        await checkPage(m, SHOTS, 'settings-retention');
        await m.page.goto(`${origin}/dashboard/forms/${f.formId}`);
        await m.page.getByRole('heading', { name: 'Deleted', exact: true }).waitFor();
        await checkPage(m, SHOTS, 'form-deleted');
      } finally {
        await m.context.close();
      }
    } finally {
      await w.context.close();
    }
  });

  const check = (w: Watched, name: string) => checkPage(w, SHOTS, name);
});
