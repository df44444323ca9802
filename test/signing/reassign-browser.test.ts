import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Actor } from '../harness.js';
import { openBrowserHarness, requestsAway, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { assertAxeClean } from './page-checks.js';
import { sampleTemplate } from './support.js';

// "Not me? Assign to someone else" (issue 38 item 5) in Chromium at 1280×800 and 390×844, in English
// and Arabic (right to left): reached from the signing page's link, axe-core clean, a missing reason
// said in the page's language, then passed on; the old link then shows the 410 page, axe clean too.
// Screenshots go to test-results/reassign/.

const SHOTS = path.resolve('test-results', 'reassign');
const VIEWPORTS = [[1280, 800], [390, 844]] as const;
const TEXT = {
  en: { title: 'Assign to someone else', link: 'Not me? Assign to someone else', missing: 'Say why they should sign instead of you.', done: /Done: .*Hal.* has been sent their own link/, gone: 'This link no longer works' },
  ar: { title: 'الإحالة إلى شخص آخر', link: 'لستُ أنا؟ أحِلْه إلى شخص آخر', missing: 'اذكر لماذا يجب أن يوقّع هو بدلًا منك.', done: /تم: أُرسل إلى .*Hal.* رابطه الخاص/, gone: 'لم يعد هذا الرابط يعمل' },
} as const;

describe('passing a form on (Chromium)', () => {
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
    const sent = await b.h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { allow_reassign: true, recipients: [{ channel: 'email', email, name: 'Gus' }] } });
    assert.equal(sent.status, 200, sent.body);
    return `${b.origin}${new URL(sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url).pathname}`;
  }

  for (const lang of ['en', 'ar'] as const) {
    for (const [width, height] of VIEWPORTS) {
      it(`${lang} at ${width}px: from the signing page's link, axe clean, passed on, the old link shows 410`, async () => {
        const url = await send(`gus-${lang}-${width}@example.com`);
        const ctx = await b.browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
        try {
          const page = await ctx.newPage();
          const problems: string[] = [];
          const requests: string[] = [];
          page.on('pageerror', (e) => problems.push(e.message));
          // The refused post (400) and the replaced link (410) are answers the test asks for.
          page.on('console', (m) => { if (m.type() === 'error' && !/status of (400|410)/.test(m.text())) problems.push(m.text()); });
          page.on('request', (r) => requests.push(r.url()));
          await page.goto(`${url}?lang=${lang}`, { waitUntil: 'load' });
          await Promise.all([page.waitForURL(/\/reassign/), page.getByRole('link', { name: TEXT[lang].link }).click()]);
          assert.equal(await page.getAttribute('html', 'dir'), lang === 'ar' ? 'rtl' : 'ltr');
          assert.equal(await page.textContent('h1'), TEXT[lang].title);
          await assertAxeClean(page, `reassign ${lang} ${width}`);
          const widths = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as number[];
          assert.ok(widths[0]! <= widths[1]!, `no horizontal scroll: ${widths.join(' > ')}`);
          await page.fill('#reassign-name', 'Hal');
          await page.fill('#reassign-email', `hal-${lang}-${width}@example.com`);
          await page.click('#reassign-submit');
          await page.waitForSelector('#reassign-error:not([hidden])');
          assert.equal(await page.textContent('#reassign-error'), TEXT[lang].missing);
          await screenshot(page, path.join(SHOTS, `reassign-${lang}-${width}.png`), { fullPage: true });
          await assertAxeClean(page, `reassign with an error ${lang} ${width}`);
          await page.fill('#reassign-reason', 'Hal signs for the team');
          await page.click('#reassign-submit');
          await page.waitForSelector('#reassign-done:not([hidden])');
          assert.match(await page.textContent('#reassign-done-text') ?? '', TEXT[lang].done);
          await screenshot(page, path.join(SHOTS, `reassigned-${lang}-${width}.png`), { fullPage: true });
          await assertAxeClean(page, `reassigned ${lang} ${width}`);
          const gone = await page.goto(`${url}?lang=${lang}`, { waitUntil: 'load' });
          assert.equal(gone?.status(), 410);
          assert.equal(await page.textContent('h1'), TEXT[lang].gone);
          await screenshot(page, path.join(SHOTS, `replaced-${lang}-${width}.png`), { fullPage: true });
          await assertAxeClean(page, `replaced link ${lang} ${width}`);
          assert.deepEqual(requestsAway(b.origin, requests), []);
          assert.deepEqual(problems, []);
        } finally {
          await ctx.close();
        }
      });
    }
  }
});
