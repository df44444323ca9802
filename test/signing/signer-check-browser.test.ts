import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Actor } from '../harness.js';
import { openBrowserHarness, requestsAway, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { assertAxeClean } from './page-checks.js';
import { sampleTemplate } from './support.js';

// The code screen of a link that asks for a check (issue 38), in Chromium at 1280×800 and 390×844, in
// English and Arabic (right to left): axe-core clean, the code asked for, read from the dev outbox (no
// SMTP here), typed and confirmed, and the document opens. Screenshots go to test-results/signer-check/.

const SHOTS = path.resolve('test-results', 'signer-check');
const VIEWPORTS = [[1280, 800], [390, 844]] as const;

describe('the code screen (Chromium)', () => {
  let b: BrowserHarness;
  let as: Actor;
  let templateId: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    b = await openBrowserHarness();
    as = b.h.actors.aTest;
    templateId = await sampleTemplate(b.h, as.partition);
  });
  after(() => b?.close());

  async function send(email: string): Promise<string> {
    const created = await b.h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } });
    const formId = created.json<{ id: string }>().id;
    const sent = await b.h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients: [{ channel: 'email', email, auth: { method: 'email_code' } }] } });
    assert.equal(sent.status, 200, sent.body);
    return `${b.origin}${new URL(sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url).pathname}`;
  }

  for (const lang of ['en', 'ar'] as const) {
    for (const [width, height] of VIEWPORTS) {
      it(`${lang} at ${width}px: usable, axe clean, the code opens the document`, async () => {
        const email = `code-${lang}-${width}@example.com`;
        const url = await send(email);
        const ctx = await b.browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
        try {
          const page = await ctx.newPage();
          const problems: string[] = [];
          const requests: string[] = [];
          page.on('pageerror', (e) => problems.push(e.message));
          // The code screen answers 401 and the wrong code 400, as they should: not page errors.
          page.on('console', (m) => { if (m.type() === 'error' && !/status of (401|400)/.test(m.text())) problems.push(m.text()); });
          page.on('request', (r) => requests.push(r.url()));
          const res = await page.goto(`${url}?lang=${lang}`, { waitUntil: 'load' });
          assert.equal(res?.status(), 401);
          assert.equal(await page.getAttribute('html', 'dir'), lang === 'ar' ? 'rtl' : 'ltr');
          assert.equal(await page.textContent('h1'), lang === 'ar' ? 'أكِّد هويتك' : 'Confirm it is you');
          assert.match(await page.textContent('#check-lead') ?? '', /c•••@example\.com/);
          await assertAxeClean(page, `code screen ${lang} ${width}`);
          // Nothing overflows the viewport sideways.
          const widths = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as number[];
          assert.ok(widths[0]! <= widths[1]!, `no horizontal scroll: ${widths.join(' > ')}`);
          await page.click('#check-send');
          await page.waitForSelector('#check-status:not(:empty)');
          const message = await b.h.deps.database.db.selectFrom('messages').select(['text', 'kind']).where('to_address', '=', email).where('kind', '=', 'auth_code').executeTakeFirstOrThrow();
          const code = /\b(\d{6})\b/.exec(message.text)![1]!;
          await page.fill('#check-code', '000000' === code ? '111111' : '000000');
          await page.click('#check-confirm');
          await page.waitForSelector('#check-status.error');
          assert.equal(await page.textContent('#check-status'), lang === 'ar' ? 'هذا الرمز غير صحيح أو انتهت صلاحيته. المحاولات المتبقية: 4.' : 'That code is not right, or it has expired. Tries left: 4.');
          await screenshot(page, path.join(SHOTS, `code-${lang}-${width}.png`), { fullPage: true });
          await assertAxeClean(page, `code screen with an error ${lang} ${width}`);
          await page.fill('#check-code', code);
          await Promise.all([page.waitForURL(/\/sign\//), page.waitForSelector('#signing', { timeout: 30_000 }), page.click('#check-confirm')]);
          assert.equal(await page.locator('#check').count(), 0);
          assert.deepEqual(requestsAway(b.origin, requests), []);
          assert.deepEqual(problems, []);
        } finally {
          await ctx.close();
        }
      });
    }
  }
});
