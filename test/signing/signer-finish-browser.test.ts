import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Actor } from '../harness.js';
import { openBrowserHarness, requestsAway, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { assertAxeClean } from './page-checks.js';
import { sampleTemplate } from './support.js';

// Re-authentication at Finish (issue 38, `auth.when: "sign"`) in Chromium at 1280×800 and 390×844, in
// English and Arabic: the code screen first, then the signing page with the signature's meaning; Finish
// opens the check's dialog (axe clean, nothing overflowing), a second code from the dev outbox is typed,
// and the signature goes through. Screenshots go to test-results/signer-check/.

const SHOTS = path.resolve('test-results', 'signer-check');
const VIEWPORTS = [[1280, 800], [390, 844]] as const;

describe('the check again at Finish (Chromium)', () => {
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
    const sent = await b.h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients: [{ channel: 'email', email, name: 'Nour Haddad', meaning: 'Approved', auth: { method: 'email_code', when: 'sign' } }] } });
    assert.equal(sent.status, 200, sent.body);
    return `${b.origin}${new URL(sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url).pathname}`;
  }
  /** The code of the newest code message to `email`, from the outbox (no SMTP here). */
  async function latestCode(email: string, count: number): Promise<string> {
    const rows = await b.h.deps.database.db.selectFrom('messages').select(['text', 'created_at']).where('to_address', '=', email).where('kind', '=', 'auth_code').orderBy('created_at', 'desc').execute();
    assert.equal(rows.length, count, `${count} code messages to ${email}`);
    return /\b(\d{6})\b/.exec(rows[0]!.text)![1]!;
  }

  for (const lang of ['en', 'ar'] as const) {
    for (const [width, height] of VIEWPORTS) {
      it(`${lang} at ${width}px: Finish asks for a new code in a dialog, usable and axe clean, then signs`, async () => {
        const email = `finish-${lang}-${width}@example.com`;
        const url = await send(email);
        const ctx = await b.browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
        try {
          const page = await ctx.newPage();
          const problems: string[] = [];
          const requests: string[] = [];
          page.on('pageerror', (e) => problems.push(e.message));
          // The code screen answers 401 and Finish before the second check 401, as they should.
          page.on('console', (m) => { if (m.type() === 'error' && !/status of 401/.test(m.text())) problems.push(m.text()); });
          page.on('request', (r) => requests.push(r.url()));
          assert.equal((await page.goto(`${url}?lang=${lang}`, { waitUntil: 'load' }))?.status(), 401);
          await page.click('#check-send');
          await page.waitForSelector('#check-status:not(:empty)');
          await page.fill('#check-code', await latestCode(email, 1));
          await Promise.all([page.waitForSelector('#signing', { timeout: 30_000 }), page.click('#check-confirm')]);
          // The meaning, before signing.
          assert.match(await page.textContent('#meaning') ?? '', lang === 'ar' ? /بالتوقيع، أنت توقّع بصفة: Approved\./ : /By signing, you sign as: Approved\./);
          assert.equal(await page.locator('#finish-check').isVisible(), false, 'the dialog waits for Finish');
          await page.locator('[data-field="full_name"]').fill('Nour Haddad');
          await page.locator('[data-field="signature"] [data-sign]').click();
          await page.locator('#tab-type').click();
          await page.locator('#typed').fill('Nour Haddad');
          await page.locator('#sig-apply').click();
          await page.locator('#consent').check();
          await page.locator('#finish').click();
          await page.waitForSelector('#finish-check[open]');
          assert.equal(await page.textContent('#finish-check-title'), lang === 'ar' ? 'أكِّد هويتك' : 'Confirm it is you');
          assert.match(await page.textContent('#finish-check-lead') ?? '', /f•••@example\.com/);
          await page.click('#finish-check-send');
          await page.waitForSelector('#finish-check-status:not(:empty)');
          await assertAxeClean(page, `Finish check ${lang} ${width}`);
          const widths = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as number[];
          assert.ok(widths[0]! <= widths[1]!, `no horizontal scroll: ${widths.join(' > ')}`);
          const box = await page.locator('#finish-check-confirm').boundingBox();
          assert.ok(box && box.x >= 0 && box.x + box.width <= width, 'the confirm button is on screen');
          await screenshot(page, path.join(SHOTS, `finish-${lang}-${width}.png`));
          await page.fill('#finish-check-code', await latestCode(email, 2));
          await Promise.all([page.waitForSelector('.notice-icon.done', { timeout: 30_000 }), page.click('#finish-check-confirm')]);
          assert.deepEqual(requestsAway(b.origin, requests), []);
          assert.deepEqual(problems, []);
        } finally {
          await ctx.close();
        }
      });
    }
  }
});
