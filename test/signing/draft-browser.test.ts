import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openBrowserHarness, requestsAway, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { assertAxeClean, waitForDocument } from './page-checks.js';
import { upsertAccountNotify } from '../../src/db/repositories/notify-settings.js';
import { SIGN_HEADERS, sendTo, twoSignerTemplate } from './support.js';

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
      await screenshot(page, path.join(SHOTS, `saved-${width}.png`), { fullPage: !phone });
      // Finish later: saved, the link sent again (the outbox has it), and the page says so.
      await page.locator('#finish-later').click();
      await page.getByText('We sent you the link again').waitFor();
      await page.locator('#finish-later').scrollIntoViewIfNeeded();
      await screenshot(page, path.join(SHOTS, `finish-later-${width}.png`));
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
      await screenshot(other, path.join(SHOTS, `restored-${width}.png`), { fullPage: !phone });
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
      await screenshot(page, path.join(SHOTS, `left-2-${width}.png`));
      await bar.getByRole('button', { name: 'Show all' }).click();
      assert.deepEqual(await bar.locator('li').allTextContents(), ['Tenant name', 'Tenant signature']);
      const barBox = await bar.boundingBox();
      assert.ok(barBox && barBox.height < height * 0.3, `the open list stays small: ${barBox?.height}px`);
      await screenshot(page, path.join(SHOTS, `left-list-${width}.png`));
      await page.locator('[data-field="tenant_name"]').fill('Ada');
      await page.waitForFunction(`document.querySelector('#form-error .left-text')?.textContent === '1 left: Tenant signature'`);
      await bar.getByRole('button', { name: /^Go/ }).click();
      assert.equal(await page.evaluate(`document.activeElement?.getAttribute('data-sign')`), 'field-1', 'Go moved to the signature button');
      await screenshot(page, path.join(SHOTS, `left-1-${width}.png`));
      await assertAxeClean(page, `compact errors ${width}`);
      await context.close();
      assert.deepEqual(problems, []);
    });
  }

  it('the end pages (voided with a reason, declined, waiting) at 390×844 and 1280 px, English and Arabic', async () => {
    const p = b.h.actors.aTest.partition;
    await b.h.deps.database.transact(async (trx) => {
      await trx.updateTable('templates').set({ signers: JSON.stringify([{ slot: 1, role: 'Tenant' }, { slot: 2, role: 'Landlord' }]) }).where('id', '=', templateId).execute();
      await upsertAccountNotify(trx, { account_id: p.accountId, notify_email: 'office@acme.example', notify_viewed: 0, updated_at: new Date().toISOString() });
    });
    const send = async (extra: Record<string, unknown>) => {
      const created = await b.h.request({ method: 'POST', url: '/api/v1/forms', as: b.h.actors.aTest, json: { template_id: templateId } });
      const formId = created.json<{ id: string }>().id;
      const sent = await b.h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as: b.h.actors.aTest, json: { recipients: [{ email: 'tina@example.com', channel: 'email', name: 'Tina' }, { email: 'lou@example.com', channel: 'email', name: 'Lou' }], ...extra } });
      return { formId, tokens: sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients.map((r) => r.signing_url.split('/sign/')[1]!) };
    };
    const voided = await send({});
    await b.h.request({ method: 'POST', url: `/api/v1/forms/${voided.formId}/void`, as: b.h.actors.aTest, json: { reason: 'The rent in clause 4 (€1,200) was wrong; a corrected lease follows.' } });
    const declined = await send({});
    await b.h.app.inject({ method: 'POST', url: `/sign/${declined.tokens[0]}/decline`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: '{}' });
    const waiting = await send({ signing_order: 'sequential' });
    const pages = { voided: voided.tokens[0]!, declined: declined.tokens[1]!, waiting: waiting.tokens[1]! };
    for (const [width, height] of [[390, 844], [1280, 900]] as const) {
      const context = await b.browser.newContext({ viewport: { width, height }, deviceScaleFactor: width < 500 ? 2 : 1, hasTouch: width < 500 });
      const page = await context.newPage();
      for (const [name, token] of Object.entries(pages)) {
        for (const lang of ['en', 'ar']) {
          await page.goto(`${b.origin}/sign/${token}?lang=${lang}`);
          await screenshot(page, path.join(SHOTS, `end-${name}-${lang}-${width}.png`));
          if (lang === 'en') await assertAxeClean(page, `${name} ${width}`);
        }
      }
      assert.match(await (await page.goto(`${b.origin}/sign/${pages.voided}`))!.text(), /The rent in clause 4/);
      await context.close();
    }
  });
});
