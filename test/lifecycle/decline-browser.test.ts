import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openBrowserHarness, requestsAway, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { assertAxeClean, waitForDocument } from '../signing/page-checks.js';
import { twoSignerTemplate } from '../signing/support.js';
import { startReceiver } from '../webhooks/support/receiver.js';
import { createWebhook, expectedSignature, signaturesOf } from '../webhooks/support/webhooks.js';
import { createAndSend, eventTypes, getForm, openLink, pageText, tokenOf, type FormBody } from './support.js';

// Decline in Chromium (issue #23 item 3): a signer opens their link, clicks "Decline to sign", gives a
// reason in the dialog and confirms. The reason reaches the `form.declined` webhook (signature
// verified) and the events list; the other recipient's link answers 410. Screenshots at 1280 and 390
// px go to test-results/lifecycle/.

const SHOTS = path.resolve('test-results', 'lifecycle');

describe('decline to sign in Chromium', () => {
  let b: BrowserHarness;
  let rx: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    rx = await startReceiver();
    b = await openBrowserHarness({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001' } });
  });
  after(async () => {
    await b?.close();
    await rx?.close();
  });

  for (const width of [1280, 390]) {
    it(`at ${width} px: the dialog's reason reaches form.declined and the events; the other link answers 410`, async () => {
      const { h } = b;
      const as = h.actors.aTest;
      const templateId = await twoSignerTemplate(h, as.partition);
      const hook = await createWebhook(h, as, rx.url, ['form.declined']);
      const { form } = await createAndSend(h, as, templateId, { recipients: [{ email: 'ada@example.com', channel: 'email', name: 'Ada Lovelace' }, { email: 'bob@example.com', channel: 'email', name: 'Bob' }] });
      const tokens = form.recipients.map((r) => tokenOf(r.signing_url));

      const context = await b.browser.newContext({ viewport: { width, height: width < 500 ? 800 : 900 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' && !/status of 410/.test(m.text())) problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('request', (r) => void requests.push(r.url()));
      try {
        await page.goto(`${b.origin}/sign/${tokens[0]}`);
        await waitForDocument(page);
        const open = page.getByRole('button', { name: 'Decline to sign' });
        await open.scrollIntoViewIfNeeded();
        await open.click();
        const dialog = page.getByRole('dialog', { name: 'Decline to sign' });
        await dialog.waitFor();
        const reason = `Wrong start date (${width})`;
        await dialog.getByLabel('Reason (optional)').fill(reason);
        await assertAxeClean(page, `decline dialog at ${width}`);
        await screenshot(page, path.join(SHOTS, `decline-dialog-${width}.png`));
        await Promise.all([page.waitForURL(`${b.origin}/sign/${tokens[0]}`), dialog.getByRole('button', { name: 'Decline', exact: true }).click()]);
        await page.getByRole('heading', { name: 'This request was declined' }).waitFor();
        assert.match(await page.locator('main').innerText(), /Ada Lovelace declined to sign it on/);
        await assertAxeClean(page, `declined page at ${width}`);
        await screenshot(page, path.join(SHOTS, `declined-page-${width}.png`), { fullPage: true });
        assert.deepEqual(problems, []);
        assert.deepEqual(requestsAway(b.origin, requests), []);

        const now = await getForm(h, as, form.id);
        assert.deepEqual([now.status, now.recipients[0]!.status, now.recipients[0]!.decline_reason], ['declined', 'declined', reason]);
        const events = await h.request({ url: `/api/v1/forms/${form.id}/events?limit=100`, as });
        const declined = events.json<{ data: Array<{ type: string; data: { object: FormBody } }> }>().data.filter((e) => e.type === 'form.declined');
        assert.equal(declined.length, 1);
        assert.equal(declined[0]!.data.object.recipients[0]!.decline_reason, reason);
        assert.equal((await eventTypes(h, as, form.id)).at(-1), 'form.declined');

        // Each width's run has its own webhook (both receive this form's event): this one's delivery verifies with its secret.
        const verifies = (r: (typeof rx.received)[number]) => {
          const sig = signaturesOf(r);
          return sig.v1.includes(expectedSignature(hook.signing_secret, sig.t, r.raw));
        };
        const mine = () => rx.received.find((r) => r.raw.includes(form.id) && verifies(r));
        for (let i = 0; i < 10 && !mine(); i++) await h.deps.worker.runDue();
        const got = mine();
        assert.ok(got, 'form.declined was delivered, its signature verified');
        const body = JSON.parse(got.raw.toString('utf8')) as { type: string; data: { object: FormBody } };
        assert.deepEqual([body.type, body.data.object.recipients[0]!.decline_reason], ['form.declined', reason]);

        const other = await openLink(h, tokens[1]!);
        assert.equal(other.statusCode, 410);
        assert.match(pageText(other.body), /This request was declined/);
      } finally {
        await context.close();
      }
    });
  }
});
