import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openBrowserHarness, requestsAway, type BrowserHarness } from '../pages/chromium.js';
import { assertAxeClean, waitForDocument } from './page-checks.js';
import { sendTo, twoSignerTemplate } from './support.js';

// Progress on the server in Chromium (issue 43 item 5): a signer types in one browser context, the
// page saves the draft as they type, and the link opened in another context (another device: no
// cookie, no storage) shows what they typed. "Finish later" says the link was sent. Screenshots at
// 390×844 (touch, 2×) and 1280 px go to test-results/drafts/.

const SHOTS = path.resolve('test-results', 'drafts');

describe('signing drafts in Chromium', () => {
  let b: BrowserHarness;
  let templateId: string;
  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    b = await openBrowserHarness();
    templateId = await twoSignerTemplate(b.h, b.h.actors.aTest.partition);
  });
  after(() => b?.close());

  for (const [width, height] of [[390, 844], [1280, 900]] as const) {
    it(`values typed in one context are there in another (${width} px)`, async () => {
      const { formId, tokens } = await sendTo(b.h, b.h.actors.aTest, templateId, [`draft${width}@example.com`, `other${width}@example.com`]);
      const phone = width < 500;
      const device = { viewport: { width, height }, deviceScaleFactor: phone ? 2 : 1, hasTouch: phone, isMobile: phone };
      const first = await b.browser.newContext(device);
      const page = await first.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
      page.on('request', (r) => void requests.push(r.url()));
      await page.goto(`${b.origin}/sign/${tokens[0]}`);
      await waitForDocument(page);
      const saved = page.waitForResponse((r) => r.url().endsWith(`/sign/${tokens[0]}/draft`) && r.request().method() === 'PUT' && r.status() === 200);
      await page.locator('[data-field="tenant_name"]').fill('Ada Draft-Lovelace');
      await saved;
      await assert.doesNotReject(page.getByText('Progress saved').waitFor());
      await page.screenshot({ path: path.join(SHOTS, `saved-${width}.png`), fullPage: !phone });
      // Finish later: saved, the link sent again (the outbox has it), and the page says so.
      await page.locator('#finish-later').click();
      await page.getByText('We sent you the link again').waitFor();
      await page.locator('#finish-later').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `finish-later-${width}.png`) });
      const sent = await b.h.deps.domain.db.selectFrom('messages').select('kind').where('form_id', '=', formId).where('kind', '=', 'resume_link').execute();
      assert.equal(sent.length, 1);
      await assertAxeClean(page, `draft page ${width}`);
      await first.close();

      // Another device: a fresh context, nothing stored; the server's draft fills the field.
      const second = await b.browser.newContext(device);
      const other = await second.newPage();
      other.on('pageerror', (e) => problems.push(e.message));
      await other.goto(`${b.origin}/sign/${tokens[0]}`);
      await waitForDocument(other);
      assert.equal(await other.locator('[data-field="tenant_name"]').inputValue(), 'Ada Draft-Lovelace');
      await other.screenshot({ path: path.join(SHOTS, `restored-${width}.png`), fullPage: !phone });
      await second.close();
      assert.deepEqual(problems, []);
      assert.deepEqual(requestsAway(b.origin, requests), []);
    });

    it(`after Finish the bar says "N left: <label> → Go", kept true, the list on request (${width} px)`, async () => {
      const { tokens } = await sendTo(b.h, b.h.actors.aTest, templateId, [`left${width}@example.com`, `left2${width}@example.com`]);
      const phone = width < 500;
      const context = await b.browser.newContext({ viewport: { width, height }, deviceScaleFactor: phone ? 2 : 1, hasTouch: phone, isMobile: phone });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${b.origin}/sign/${tokens[0]}`);
      await waitForDocument(page);
      await page.locator(phone ? '#guide-finish' : '#finish').click();
      const bar = page.locator('#form-error');
      await bar.locator('.left-text').waitFor();
      assert.equal(await bar.locator('.left-text').textContent(), '2 left: Tenant name');
      assert.equal(await bar.locator('li').count(), 0, 'no list until asked for');
      await page.screenshot({ path: path.join(SHOTS, `left-2-${width}.png`) });
      await bar.getByRole('button', { name: 'Show all' }).click();
      assert.deepEqual(await bar.locator('li').allTextContents(), ['Tenant name', 'Tenant signature']);
      const barBox = await bar.boundingBox();
      assert.ok(barBox && barBox.height < height * 0.3, `the open list stays small: ${barBox?.height}px`);
      await page.screenshot({ path: path.join(SHOTS, `left-list-${width}.png`) });
      await page.locator('[data-field="tenant_name"]').fill('Ada');
      await page.waitForFunction(`document.querySelector('#form-error .left-text')?.textContent === '1 left: Tenant signature'`);
      await bar.getByRole('button', { name: /^Go/ }).click();
      assert.equal(await page.evaluate(`document.activeElement?.getAttribute('data-sign')`), 'field-1', 'Go moved to the signature button');
      await page.screenshot({ path: path.join(SHOTS, `left-1-${width}.png`) });
      await assertAxeClean(page, `compact errors ${width}`);
      await context.close();
      assert.deepEqual(problems, []);
    });
  }
});
