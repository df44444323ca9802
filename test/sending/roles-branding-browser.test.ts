import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openBrowserHarness, requestsAway, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { assertAxeClean, waitForDocument } from '../signing/page-checks.js';
import { twoSignerTemplate } from '../signing/support.js';
import { createAndSend, getForm, tokenOf } from '../lifecycle/support.js';

// Issue 42 in Chromium: a branded account's signing page (logo, name, darkened accent, the sender's
// message) and an approver's page at 1280 and 390 px, axe-clean, with no request leaving the server;
// the approver approves with the button. The invitation's HTML, as stored, rendered at both widths.
// Screenshots go to test-results/sending/.

const SHOTS = path.resolve('test-results', 'sending');
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 32" onload="alert(1)"><rect width="120" height="32" rx="6" fill="#0b5cad"/><text x="12" y="22" fill="#ffffff" font-size="16" font-family="sans-serif">ACME</text></svg>`;

describe('branded signing page and approver page in Chromium', () => {
  let b: BrowserHarness;
  let accent: string;
  let base: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    b = await openBrowserHarness();
    base = b.h.deps.config.baseUrl;
    const set = await b.h.request({ method: 'PATCH', url: '/api/v1/branding', as: b.h.actors.aTest, json: { sender_name: 'Acme Homes', accent_color: '#ffcc00', logo: { content_type: 'image/svg+xml', data: Buffer.from(LOGO).toString('base64') } } });
    assert.equal(set.status, 200, set.body);
    accent = set.json<{ accent_color: string }>().accent_color;
  });
  after(async () => {
    await b?.close();
  });

  for (const width of [1280, 390]) {
    it(`at ${width} px: the branded signing page and the approver's page are axe-clean; the approver approves`, async () => {
      const { h } = b;
      const as = h.actors.aTest;
      const templateId = await twoSignerTemplate(h, as.partition);
      const { form } = await createAndSend(h, as, templateId, {
        message: 'Hello Ada,\nplease check the start date <before> you sign. Thanks!',
        recipients: [{ email: 'ada@example.com', channel: 'email', name: 'Ada Lovelace' }, { email: 'max@example.com', channel: 'email', name: 'Max Approver', role: 'approver', signer: 3 }],
      });
      const [ada, max] = form.recipients.map((r) => tokenOf(r.signing_url)) as [string, string];
      const context = await b.browser.newContext({ viewport: { width, height: width < 500 ? 800 : 900 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('request', (r) => void requests.push(r.url()));
      try {
        await page.goto(`${b.origin}/sign/${ada}`);
        await waitForDocument(page);
        const logo = page.locator('header img.brand-logo');
        await logo.waitFor();
        assert.ok((await logo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) > 0, 'the logo loads');
        assert.match(await page.locator('header').innerText(), /Acme Homes/);
        assert.equal(await page.evaluate('getComputedStyle(document.documentElement).getPropertyValue("--accent").trim()'), accent);
        assert.match(await page.locator('.sender-message').innerText(), /please check the start date <before> you sign/);
        await assertAxeClean(page, `branded signing page at ${width}`);
        await screenshot(page, path.join(SHOTS, `branded-signing-${width}.png`), { fullPage: width > 500 });

        await page.goto(`${b.origin}/sign/${max}`);
        await page.getByRole('button', { name: 'Approve' }).waitFor();
        assert.equal(await page.locator('#sign-form').count(), 0, 'no fields for an approver');
        await assertAxeClean(page, `approver page at ${width}`);
        await screenshot(page, path.join(SHOTS, `approver-${width}.png`), { fullPage: true });
        // The approval needs the signer first? No: a parallel form lets the approver act now.
        await Promise.all([page.waitForURL(`${b.origin}/sign/${max}`), page.getByRole('button', { name: 'Approve' }).click()]);
        await page.getByRole('heading', { name: /You approved/ }).waitFor();
        await assertAxeClean(page, `approved page at ${width}`);
        await screenshot(page, path.join(SHOTS, `approved-${width}.png`), { fullPage: true });
        assert.deepEqual(problems, []);
        assert.deepEqual(requestsAway(b.origin, requests), []);
        const now = await getForm(h, as, form.id);
        assert.deepEqual(now.recipients.map((r) => r.status), ['viewed', 'approved']);
        assert.equal(now.status, 'viewed', 'the signer has not signed yet: not complete');
      } finally {
        await context.close();
      }
    });
  }

  it('the branded invitation e-mail, as stored, is axe-clean at 1280 and 390 px and shows the logo', async () => {
    const rows = await b.h.deps.database.db.selectFrom('messages').select(['html', 'to_address', 'kind']).where('kind', '=', 'invite').where('to_address', '=', 'ada@example.com').execute();
    const html = rows.at(-1)?.html;
    assert.ok(html);
    // A mail client loads the logo from BASE_URL; here the test server is it.
    const shown = html.split(base).join(b.origin);
    for (const width of [1280, 390]) {
      const page = await b.browser.newPage({ viewport: { width, height: 900 } });
      try {
        await page.setContent(shown, { waitUntil: 'load' });
        assert.ok((await page.locator('img').first().evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) > 0, 'the logo loads');
        assert.match((await page.evaluate('document.body.innerText')) as string, /Message from Acme Homes:\s+Hello Ada,\s+please check the start date <before> you sign\./);
        await assertAxeClean(page, `invitation at ${width}`);
        const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
        assert.ok(overflow <= 0, `scrolls sideways by ${overflow}px`);
        await screenshot(page, path.join(SHOTS, `branded-invitation-${width}.png`), { fullPage: true });
      } finally {
        await page.close();
      }
    }
  });
});
