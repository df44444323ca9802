import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { CATALOGUES } from '../../src/lib/i18n/index.js';
import type { Actor } from '../harness.js';
import { openBrowserHarness, requestsAway, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { thirteenPageTemplate } from './long-form.js';
import { assertAxeClean } from './page-checks.js';
import { twoSignerTemplate } from './support.js';

// The signing page in the signer's language, in Chromium at 1280×800 and 390×844: Arabic right to left
// (the panel and dialog mirror, the document does not), German chosen by the browser's
// Accept-Language, the language menu switching with what was typed kept, axe-core clean in each; the
// 13-page form shown as numbered placeholders that become pages as they scroll into view; the invite
// e-mail in Japanese and Arabic as a mail client shows it. Screenshots go to test-results/i18n/ (a run
// never writes into docs/: docs/signing-arabic*.png are copies of signing-arabic*.png made by hand).

const SHOTS = path.resolve('test-results', 'i18n');
const VIEWPORTS = [[1280, 800], [390, 844]] as const;
// A catalogue key shown instead of its text, or a placeholder left unfilled.
const UNTRANSLATED = /\b(?:page|sign|dialog|problem|signed|expired|invalid|email|sms)\.[a-z][A-Za-z]+\b|\{[a-z]+\}/;

interface SendTo { email: string; name?: string; locale?: string }

describe('signing page in the signer\'s language (Chromium)', () => {
  let b: BrowserHarness;
  let as: Actor;
  let leaseId: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    b = await openBrowserHarness();
    as = b.h.actors.aTest;
    leaseId = await twoSignerTemplate(b.h, as.partition);
  });
  after(() => b?.close());

  async function send(templateId: string, recipients: SendTo[]): Promise<{ formId: string; urls: string[] }> {
    const created = await b.h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } });
    assert.equal(created.status, 201, created.body);
    const formId = created.json<{ id: string }>().id;
    const sent = await b.h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients: recipients.map((r) => ({ channel: 'email', ...r })) } });
    assert.equal(sent.status, 200, sent.body);
    const urls = sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients.map((r) => `${b.origin}${new URL(r.signing_url).pathname}`);
    return { formId, urls };
  }

  async function open(url: string, context: BrowserContextOptions) {
    const ctx = await b.browser.newContext({ deviceScaleFactor: 1, ...context });
    const page = await ctx.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    const res = await page.goto(url, { waitUntil: 'load' });
    return { ctx, page, problems, requests, status: res?.status() };
  }

  const drawn = (page: Page, timeout = 60_000) => page.locator('.page.drawn').first().waitFor({ timeout });
  const bodyText = (page: Page) => page.locator('body').innerText();

  for (const [width, height] of VIEWPORTS) {
    it(`Arabic at ${width}×${height}: right to left, the panel mirrored and the document not, in Arabic throughout, axe clean`, async () => {
      const { urls } = await send(leaseId, [{ email: `ar-${width}@example.com`, name: 'ليلى حسن', locale: 'ar-EG' }, { email: `l-${width}@example.com` }]);
      const s = await open(urls[0]!, { viewport: { width, height }, hasTouch: width < 500 });
      try {
        await drawn(s.page);
        assert.equal(await s.page.getAttribute('html', 'dir'), 'rtl');
        assert.equal(await s.page.getAttribute('html', 'lang'), 'ar');
        assert.equal(await s.page.getAttribute('#pages', 'dir'), 'ltr', 'the document is not mirrored');
        assert.equal(await s.page.locator('#panel-title').innerText(), CATALOGUES.ar['sign.yourFields']);
        assert.equal(await s.page.locator('#doc-status').innerText(), CATALOGUES.ar['sign.pageCountOne']);
        const text = await bodyText(s.page);
        assert.ok(text.includes(CATALOGUES.ar['sign.finishAndSign']) && text.includes(CATALOGUES.ar['page.footer']), 'Arabic words');
        assert.doesNotMatch(text, UNTRANSLATED);
        assert.doesNotMatch(text, /Your fields|Finish and sign|Next field/, 'no English left');
        if (width > 900) {
          // Side by side: the panel sits on the left in Arabic (on the right in English).
          const panel = await s.page.locator('.panel').boundingBox();
          const doc = await s.page.locator('.doc').boundingBox();
          assert.ok(panel && doc && panel.x < doc.x, 'the panel is left of the document');
        }
        await assertAxeClean(s.page, `Arabic ${width}`);
        const shot = width > 900 ? 'signing-arabic.png' : 'signing-arabic-phone.png';
        await screenshot(s.page, path.join(SHOTS, shot));

        // The dialog mirrors too; a name typed in Arabic is drawn in a font that has Arabic letters.
        await s.page.locator('[data-field="tenant_signature"] [data-sign]').click();
        await s.page.locator('#sig-dialog').waitFor({ state: 'visible' });
        assert.equal(await s.page.locator('#sig-title').innerText(), CATALOGUES.ar['dialog.signatureTitle']);
        await s.page.locator('#tab-type').click();
        await s.page.locator('#typed').fill('ليلى حسن');
        await s.page.waitForFunction(() => (globalThis as unknown as { document: { fonts: { check(f: string, t: string): boolean } } }).document.fonts.check('40px "Formsign Sans"', 'ليلى'));
        const cancel = await s.page.locator('#sig-cancel').boundingBox();
        const apply = await s.page.locator('#sig-apply').boundingBox();
        assert.ok(cancel && apply && apply.x < cancel.x, 'the dialog\'s buttons mirror: Apply on the left');
        await screenshot(s.page, path.join(SHOTS, `arabic-${width}-dialog.png`));
        await assertAxeClean(s.page, `Arabic dialog ${width}`);
        await s.page.locator('#sig-apply').click();
        await s.page.locator('#sig-dialog').waitFor({ state: 'hidden' });
        assert.deepEqual(s.problems, []);
        assert.deepEqual(requestsAway(b.origin, s.requests), []);
      } finally {
        await s.ctx.close();
      }
    });
  }

  it('German by the browser\'s Accept-Language: words, errors at the field and dates in German, axe clean', async () => {
    const { urls } = await send(leaseId, [{ email: 'de@example.com', name: 'Jana Schmidt' }, { email: 'l-de@example.com' }]);
    const s = await open(urls[0]!, { viewport: { width: 1280, height: 800 }, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
    try {
      await drawn(s.page);
      assert.equal(await s.page.getAttribute('html', 'lang'), 'de');
      assert.equal(await s.page.getAttribute('html', 'dir'), 'ltr');
      assert.equal(await s.page.locator('#next-field').innerText(), 'Nächstes Feld');
      assert.equal(await s.page.locator('#doc-status').innerText(), '1 Seite');
      // The link's end, in German and in the browser's time zone (the server wrote it in UTC).
      assert.match(await s.page.locator('.lead time').innerText(), /^\d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4} um \d\d:\d\d (MEZ|MESZ|GMT\+1|GMT\+2)$/);
      await s.page.locator('#finish').click();
      const error = s.page.locator('#form-error');
      await error.waitFor({ state: 'visible' });
      assert.equal(await error.locator('.left-text').innerText(), '2 offen: Tenant name');
      assert.equal(await s.page.locator('#field-0-error').innerText(), 'Tenant name ist erforderlich: Bitte ausfüllen.');
      assert.doesNotMatch(await bodyText(s.page), UNTRANSLATED);
      await screenshot(s.page, path.join(SHOTS, 'german-1280.png'), { fullPage: true });
      await assertAxeClean(s.page, 'German');
      assert.deepEqual(s.problems, []);
    } finally {
      await s.ctx.close();
    }
  });

  it('the language menu switches the page (Hebrew), keeps what was typed, and the signed page stays in it', async () => {
    const { urls } = await send(leaseId, [{ email: 'menu@example.com', name: 'Dana Levi' }, { email: 'l-menu@example.com' }]);
    const s = await open(urls[0]!, { viewport: { width: 390, height: 844 }, hasTouch: true, locale: 'en-US' });
    try {
      await drawn(s.page);
      assert.equal(await s.page.getAttribute('html', 'lang'), 'en');
      await s.page.locator('[data-field="tenant_name"]').fill('Dana Levi');
      await Promise.all([s.page.waitForURL(/\?lang=he$/), s.page.locator('#lang-select').selectOption('he')]);
      await drawn(s.page);
      assert.equal(await s.page.getAttribute('html', 'dir'), 'rtl');
      assert.equal(await s.page.locator('#panel-title').innerText(), CATALOGUES.he['sign.yourFields']);
      assert.equal(await s.page.locator('[data-field="tenant_name"]').inputValue(), 'Dana Levi', 'the value typed came back');
      await assertAxeClean(s.page, 'Hebrew');
      // Sign: a typed name, the agreement, finish; the confirmation comes in Hebrew too.
      await s.page.locator('[data-field="tenant_signature"] [data-sign]').click();
      await s.page.locator('#tab-type').click();
      await s.page.locator('#typed').fill('דנה לוי');
      await s.page.locator('#sig-apply').click();
      await s.page.locator('#sig-dialog').waitFor({ state: 'hidden' });
      await s.page.locator('#consent').check();
      await s.page.locator('#guide-finish').click();
      await s.page.locator('.notice h1').waitFor({ timeout: 30_000 });
      assert.match(s.page.url(), /\/sign\/[^/?]+\?lang=he$/);
      assert.equal(await s.page.getAttribute('html', 'lang'), 'he');
      assert.equal(await s.page.locator('.notice h1').innerText(), CATALOGUES.he['signed.heading'].replace('{form}', 'Residential lease'));
      await screenshot(s.page, path.join(SHOTS, 'hebrew-signed-390.png'), { fullPage: true });
      await assertAxeClean(s.page, 'Hebrew signed');
      assert.deepEqual(s.problems, []);
    } finally {
      await s.ctx.close();
    }
  });

  it('a 13-page form: numbered placeholders first, pages drawn as they scroll into view, each canvas as sharp as the screen', async () => {
    const templateId = await thirteenPageTemplate(b.h, as);
    const { urls } = await send(templateId, [{ email: 'long@example.com', name: 'Long Form' }]);
    const s = await open(urls[0]!, { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
    try {
      await s.page.locator('#doc-status', { hasText: '13 pages' }).waitFor({ timeout: 60_000 });
      assert.equal(await s.page.locator('.page').count(), 13);
      await drawn(s.page);
      const last = s.page.locator('.page').nth(12);
      assert.match(await last.getAttribute('class') ?? '', /pending/, 'the last page waits until it is near the view');
      assert.equal(await last.locator('.page-placeholder').innerText(), 'Page 13 of 13, loading');
      await screenshot(s.page, path.join(SHOTS, 'thirteen-top.png'));
      await last.scrollIntoViewIfNeeded();
      await s.page.waitForFunction(() => (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number; [i: number]: { className: string } } } }).document.querySelectorAll('.page')[12]!.className.includes('drawn'), undefined, { timeout: 60_000 });
      await screenshot(s.page, path.join(SHOTS, 'thirteen-last.png'));
      // The canvas backs its CSS box at the screen's density (2): the page fills its box to the foot.
      const sizes = await s.page.evaluate(`[...document.querySelectorAll('.page.drawn')].map((w) => { const c = w.querySelector('canvas'); const r = c.getBoundingClientRect(); return [c.width / r.width, c.height / r.height]; })`) as Array<[number, number]>;
      assert.ok(sizes.length >= 2);
      for (const [x, y] of sizes) assert.ok(Math.abs(x - 2) < 0.02 && Math.abs(y - 2) < 0.02, `canvas to box ${x}×${y}`);
      assert.ok((await s.page.locator('.page.pending').count()) > 0, 'pages never in view are never drawn');
      assert.deepEqual(s.problems, []);
    } finally {
      await s.ctx.close();
    }
  });

  it('the invite e-mail in Japanese and in Arabic, as a mail client shows it', async () => {
    for (const [locale, expected] of [['ja', '「Residential lease」に署名してください'], ['ar', 'يُرجى توقيع «Residential lease»']] as const) {
      const { formId } = await send(leaseId, [{ email: `mail-${locale}@example.com`, name: 'Reader', locale }]);
      const message = await b.h.deps.database.db.selectFrom('messages').select(['subject', 'text', 'html']).where('form_id', '=', formId).executeTakeFirstOrThrow();
      assert.equal(message.subject, CATALOGUES[locale]['email.subject'].replace('{account}', 'Account A').replace('{form}', 'Residential lease'));
      assert.doesNotMatch(message.text, UNTRANSLATED);
      const ctx = await b.browser.newContext({ viewport: { width: 640, height: 700 } });
      const page = await ctx.newPage();
      try {
        await page.setContent(message.html ?? '', { waitUntil: 'load' });
        const text = await page.locator('body').innerText();
        assert.ok(text.includes(expected), text);
        assert.ok(text.includes(CATALOGUES[locale]['email.button']));
        assert.equal(await page.getAttribute('html', 'dir'), locale === 'ar' ? 'rtl' : 'ltr');
        await screenshot(page, path.join(SHOTS, `invite-${locale}.png`), { fullPage: true });
      } finally {
        await ctx.close();
      }
    }
  });

  it('the expired page says whom to ask, in French; a wrong link shows a signer no developer links, in Spanish', async () => {
    const { formId, urls } = await send(leaseId, [{ email: 'fr@example.com', locale: 'fr' }, { email: 'l-fr@example.com' }]);
    await b.h.deps.database.db.updateTable('forms').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', formId).execute();
    const expired = await open(urls[0]!, { viewport: { width: 390, height: 844 } });
    try {
      assert.equal(expired.status, 410);
      assert.equal(await expired.page.locator('h1').innerText(), 'Ce lien de signature a expiré');
      assert.match(await expired.page.locator('.lead').innerText(), /^« Residential lease » ne pouvait plus être signé après le .*2020.*\. Demandez à Account A de vous l’envoyer à nouveau\.$/);
      await assertAxeClean(expired.page, 'expired, French');
    } finally {
      await expired.ctx.close();
    }
    const wrong = await open(`${b.origin}/sign/${'x'.repeat(43)}`, { viewport: { width: 390, height: 844 }, locale: 'es-ES' });
    try {
      assert.equal(wrong.status, 404);
      assert.equal(await wrong.page.locator('h1').innerText(), 'Este enlace de firma no es válido');
      const links = await wrong.page.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      assert.deepEqual(links, [], 'no links at all: no API reference, no health page');
      await screenshot(wrong.page, path.join(SHOTS, 'invalid-es-390.png'), { fullPage: true });
      await assertAxeClean(wrong.page, 'invalid, Spanish');
    } finally {
      await wrong.ctx.close();
    }
  });
});
