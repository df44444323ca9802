import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import type { Actor } from '../harness.js';
import { SIGN_HEADERS, sampleTemplate } from '../signing/support.js';
import { checkPage, openWatched, signUpInPage, startBrowserStage, type BrowserStage, type Watched } from './browser-support.js';
import { uniqueEmail } from './support.js';

// Issue 38 item 6 in Chromium: a form's page shows who verified when (method, masked destination,
// verified time, wrong codes, a lockout) and "Change" on a row that has not signed, whose dialog calls
// the API's PATCH; the row then shows the new person, and the old link answers 410. Screenshots at
// 1280 and 390 px (test-results/recipient-change/), axe-core clean, no page or console error.

const SHOTS = path.resolve('test-results', 'recipient-change');

describe('who verified, and Change recipient, on the dashboard form page', () => {
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

  it('verification per recipient and the Change dialog, at 1280 and 390 px', async () => {
    const h = stage.h;
    const w = await openWatched(browser, origin, 1280);
    const { page } = w;
    try {
      await page.goto(`${origin}/dashboard/signup`);
      await signUpInPage(page, uniqueEmail('reassign'));
      const session = (await (await page.request.get(`${origin}/dashboard/api/session`)).json()) as { account: { id: string } };
      const k = await createApiKey(h.deps.domain, { accountId: session.account.id, mode: 'test' });
      const as: Actor = { key: k.key, keyId: k.id, partition: { accountId: session.account.id, mode: 'test' } };
      const templateId = await sampleTemplate(h, as.partition);
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } });
      const formId = created.json<{ id: string }>().id;
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients: [
        { channel: 'email', email: 'ada@example.com', name: 'Ada', auth: { method: 'access_code', access_code: 'Ada-Code-2026' } },
        { channel: 'email', email: 'bob@example.com', name: 'Bob', auth: { method: 'email_code', when: 'sign' } },
      ] } });
      assert.equal(sent.status, 200, sent.body);
      const urls = sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients.map((r) => new URL(r.signing_url).pathname);
      const post = (url: string, route: string, code: string) => h.app.inject({ method: 'POST', url: `${url}/${route}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ code }) });
      // Ada passes her check after one wrong code; Bob asks for a code and locks his link.
      await post(urls[0]!, 'auth/verify', 'not-the-code');
      assert.equal((await post(urls[0]!, 'auth/verify', 'Ada-Code-2026')).statusCode, 200);
      assert.equal((await h.app.inject({ method: 'POST', url: `${urls[1]}/auth/start`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: '{}' })).statusCode, 200);
      for (let i = 0; i < 5; i++) await post(urls[1]!, 'auth/verify', '000001');

      await page.goto(`${origin}/dashboard/forms/${formId}`);
      const table = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Verified' }) });
      await table.waitFor();
      await page.getByText('b•••@example.com').waitFor();
      await table.getByRole('row', { name: /Ada/ }).getByText('Access code').waitFor();
      await table.getByText(/Locked 1×/).waitFor();
      await check(w, 'form-verification');

      await page.getByRole('button', { name: 'Change recipient Bob' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'Change recipient' }).waitFor();
      await dialog.getByLabel('Name').fill('Robert');
      await dialog.getByLabel('E-mail address').fill('robert@example.com');
      await check(w, 'change-recipient-dialog');
      await dialog.getByRole('button', { name: 'Change and send a new link' }).click();
      await page.getByRole('cell', { name: /Robert/ }).first().waitFor();
      await page.getByText(/Replaced Bob \(bob@example\.com\) by the sender/).waitFor();
      await check(w, 'form-after-change');
      assert.equal((await h.app.inject({ url: urls[1]! })).statusCode, 410, 'the old link is gone');

      const m = await openWatched(browser, origin, 390, { storageState: await w.context.storageState() });
      try {
        await m.page.goto(`${origin}/dashboard/forms/${formId}`);
        await m.page.getByText(/Replaced Bob/).waitFor();
        await checkPage(m, SHOTS, 'form-after-change');
        await m.page.getByRole('button', { name: 'Change recipient Ada' }).click();
        await m.page.getByRole('dialog').getByRole('heading', { name: 'Change recipient' }).waitFor();
        await checkPage(m, SHOTS, 'change-recipient-dialog');
      } finally {
        await m.context.close();
      }
    } finally {
      await w.context.close();
    }
  });
});
