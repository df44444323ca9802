import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Actor } from '../harness.js';
import { sealedPdfOf } from '../evidence/support.js';
import { openBrowserHarness, PHONE_CONTEXT, requestsAway, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { assertAxeClean, waitForDocument } from './page-checks.js';
import { adoptTemplate, noisyPhotoPng, scannedSignaturePng } from './support.js';
import { MAX_SIGNATURE_BYTES } from '../../src/domain/signing/signature-image.js';

// Adopting a signature (issue 43 item 7) in Chromium: the recipient's name is typed in already and
// drawn by the server in three styles; one is chosen by keyboard and used for every signature and
// initials field (the initials derived); an initials field is changed to an uploaded scan whose white
// paper becomes transparent; on a phone the pad takes the screen. The form is finished and the sealed
// PDF carries the marks (pdfsig verifies it; the page is rendered with pdftoppm). The adoption sheet
// is screenshot in English, Arabic and Chinese at 1280 px and 390×844 (test-results/adopt-signature/).

const SHOTS = path.resolve('test-results', 'adopt-signature');

describe('adopting a signature (Chromium)', () => {
  let b: BrowserHarness;
  let as: Actor;
  let templateId: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    b = await openBrowserHarness();
    // The job worker seals the signed forms.
    await b.h.deps.worker.start();
    as = b.h.actors.aTest;
    templateId = await adoptTemplate(b.h, as.partition);
  });
  after(async () => {
    await b?.h.deps.worker.stop();
    await b?.close();
  });

  async function send(email: string, name: string, locale = 'en'): Promise<{ formId: string; url: string }> {
    const created = await b.h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } });
    const formId = created.json<{ id: string }>().id;
    const sent = await b.h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients: [{ channel: 'email', email, name, locale }] } });
    assert.equal(sent.status, 200, sent.body);
    return { formId, url: `${b.origin}${new URL(sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url).pathname}` };
  }

  const signButton = (page: Page, field: string) => page.locator(`[data-field="${field}"] [data-sign]`);
  /** The field's preview canvas: its size, and the alpha of its corner and of its most opaque pixel. */
  const previewOf = (page: Page, field: string) => page.locator(`[data-field="${field}"] canvas.sig-preview`).evaluate((el) => {
    // This file compiles without the DOM library: the canvas as the little of it that is used.
    const c = el as unknown as { hidden: boolean; width: number; height: number; toDataURL(type: string): string; getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } };
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let opaque = 0;
    for (let i = 3; i < data.length; i += 4) opaque = Math.max(opaque, data[i]!);
    // The preview holds the pixels sent: their PNG, as the page encodes it, is what the server measures.
    const png = c.toDataURL('image/png');
    return { hidden: c.hidden, width: c.width, height: c.height, corner: data[3]!, opaque, pngBytes: Math.floor((png.length - png.indexOf(',') - 1) * 3 / 4) };
  });

  it('types the prefilled name in a chosen style, uses it for every field, uploads a scan for one initials field, and seals it', async () => {
    const { formId, url } = await send('ada@example.com', 'Ada Lovelace');
    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    const page = await ctx.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('request', (r) => requests.push(r.url()));
    try {
      await page.goto(url, { waitUntil: 'load' });
      await waitForDocument(page);
      await page.locator('[data-field="full_name"]').fill('Ada Lovelace');
      await signButton(page, 'signature_a').click();
      await page.locator('#sig-dialog').waitFor({ state: 'visible' });
      // Keyboard: the tabs by arrow keys (Draw → Type), the style by arrow keys in its radio group.
      await page.locator('#tab-draw').focus();
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.locator('#tab-type').getAttribute('aria-selected'), 'true');
      assert.equal(await page.locator('#typed').inputValue(), 'Ada Lovelace', 'the name is typed in already');
      await page.locator('.sig-style').nth(2).waitFor();
      assert.deepEqual(await page.locator('.sig-style-name').allTextContents(), ['Dancing Script', 'Kaushan Script', 'Kristi']);
      assert.equal(await page.locator('.sig-style path').count(), 3);
      await page.locator('.sig-style input').first().focus();
      await page.keyboard.press('ArrowDown');
      assert.equal(await page.locator('.sig-style input:checked').getAttribute('value'), 'kaushan');
      await page.locator('#sig-all').check();
      await assertAxeClean(page, 'adoption sheet, typed');
      await screenshot(page, path.join(SHOTS, 'typed-en-1280.png'));
      await page.locator('#sig-apply').click();
      await page.locator('#sig-dialog').waitFor({ state: 'hidden' });
      assert.match(await page.locator('.sig-all-status').textContent() ?? '', /Also added to your other signature and initials fields \(3\)/);
      for (const field of ['signature_a', 'signature_b', 'initials_a', 'initials_b']) {
        const p = await previewOf(page, field);
        assert.equal(p.hidden, false, `${field} is signed`);
        assert.ok(p.opaque === 255 && p.corner === 0, `${field}: ink on transparency`);
      }
      // The initials are the name's, narrower than the name.
      const [sig, ini] = [await previewOf(page, 'signature_b'), await previewOf(page, 'initials_a')];
      assert.ok(ini.width < sig.width * 0.6, `initials ${ini.width}px vs signature ${sig.width}px`);
      await signButton(page, 'initials_a').click();
      assert.equal(await page.locator('#typed').inputValue(), 'AL', 'initials derived from the name');
      await page.locator('#sig-cancel').click();

      // Upload: a GIF is refused, a scan on white paper becomes ink on transparency.
      await signButton(page, 'initials_b').click();
      await page.locator('#tab-upload').click();
      await page.locator('#sig-upload').setInputFiles({ name: 'sig.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1') });
      await page.locator('#sig-error', { hasText: 'Only PNG and JPEG images can be used.' }).waitFor();
      await page.locator('#sig-upload').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
      await page.locator('#sig-error', { hasText: 'This image is larger than 5 MB. Choose a smaller one.' }).waitFor();
      // A noisy photo (light greys: its alpha partial everywhere once the paper is cleared) would encode
      // to megabytes: it is made to fit the server's limit when applied, not refused at Finish.
      await page.locator('#sig-upload').setInputFiles({ name: 'noisy.png', mimeType: 'image/png', buffer: noisyPhotoPng() });
      await page.locator('#upload-preview:not([hidden])').waitFor();
      await page.locator('#sig-apply').click();
      await page.locator('#sig-dialog').waitFor({ state: 'hidden' });
      const noisy = await previewOf(page, 'initials_b');
      assert.ok(noisy.pngBytes <= MAX_SIGNATURE_BYTES && noisy.width >= 150 && noisy.width <= 1200, `${noisy.width}×${noisy.height}, ${noisy.pngBytes} bytes`);
      await signButton(page, 'initials_b').click();
      await page.locator('#tab-upload').click();
      await page.locator('#sig-upload').setInputFiles({ name: 'scan.png', mimeType: 'image/png', buffer: scannedSignaturePng() });
      await page.locator('#upload-preview:not([hidden])').waitFor();
      assert.equal(await page.locator('#sig-error').isVisible(), false, 'the refusal is gone');
      // Only this field changes (the box is asked each time).
      assert.equal(await page.locator('#sig-all').isChecked(), false);
      await assertAxeClean(page, 'adoption sheet, upload');
      await screenshot(page, path.join(SHOTS, 'upload-en-1280.png'));
      await page.locator('#sig-apply').click();
      await page.locator('#sig-dialog').waitFor({ state: 'hidden' });
      const scan = await previewOf(page, 'initials_b');
      assert.ok(scan.corner === 0 && scan.opaque === 255, 'the paper is transparent, the stroke opaque');
      assert.ok(scan.width <= 1200 && scan.width > 300, `scaled and cropped: ${scan.width}×${scan.height}`);

      await page.locator('#consent').check();
      await page.locator('#finish').click();
      await page.locator('h1', { hasText: 'You signed' }).waitFor({ timeout: 30_000 });
      assert.deepEqual(requestsAway(b.origin, requests), []);
      assert.deepEqual(problems, []);
    } finally {
      await ctx.close();
    }
    const pdf = await sealedPdfOf(b.h, formId);
    const file = path.join(SHOTS, 'sealed-typed.pdf');
    fs.writeFileSync(file, pdf);
    assert.ok(spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout.includes('Signature is Valid'), 'pdfsig verifies the seal');
    assert.equal(spawnSync('qpdf', ['--check', file], { encoding: 'utf8' }).status, 0, 'qpdf finds the file sound');
    // Four marks on the document's page: two typed signatures, typed initials, the uploaded scan.
    const images = spawnSync('pdfimages', ['-list', '-f', '1', '-l', '1', file], { encoding: 'utf8' }).stdout.trim().split('\n').slice(2).filter((l) => /\bimage\b/.test(l));
    assert.ok(images.length >= 4, `marks on page 1:\n${images.join('\n')}`);
    spawnSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', file, path.join(SHOTS, 'sealed-typed-page')]);
  });

  it('on a phone the pad takes the screen; a drawn signature goes on every field and the initials are typed', async () => {
    const { formId, url } = await send('grace@example.com', 'Grace Hopper');
    const ctx = await b.browser.newContext(PHONE_CONTEXT);
    const page = await ctx.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    try {
      await page.goto(url, { waitUntil: 'load' });
      await waitForDocument(page);
      await page.locator('[data-field="full_name"]').fill('Grace Hopper');
      await signButton(page, 'signature_a').click();
      await page.locator('#sig-dialog').waitFor({ state: 'visible' });
      const pad = (await page.locator('#pad').boundingBox())!;
      assert.ok(pad.width >= 350 && pad.height >= 500, `the pad fills the phone: ${pad.width}×${pad.height}`);
      const actions = (await page.locator('#sig-apply').boundingBox())!;
      assert.ok(actions.y + actions.height <= 844, 'Apply is on screen');
      await page.mouse.move(pad.x + 30, pad.y + pad.height / 2);
      await page.mouse.down();
      for (let i = 1; i <= 20; i++) await page.mouse.move(pad.x + 30 + i * ((pad.width - 60) / 20), pad.y + pad.height / 2 + Math.sin(i / 2) * 40, { steps: 2 });
      await page.mouse.up();
      // Turned sideways, the pad still takes the screen and Apply stays on it.
      await page.setViewportSize({ width: 844, height: 390 });
      const wide = (await page.locator('#pad').boundingBox())!;
      const apply = (await page.locator('#sig-apply').boundingBox())!;
      await screenshot(page, path.join(SHOTS, 'draw-en-844x390.png'));
      assert.ok(wide.width >= 800 && wide.height >= 120, `the pad fills the landscape phone: ${wide.width}×${wide.height}`);
      assert.ok(apply.y + apply.height <= 390, 'Apply is on screen in landscape');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.locator('#sig-all').check();
      await assertAxeClean(page, 'phone pad');
      await screenshot(page, path.join(SHOTS, 'draw-en-390.png'));
      await page.locator('#sig-apply').click();
      await page.locator('#sig-dialog').waitFor({ state: 'hidden' });
      for (const field of ['signature_a', 'signature_b', 'initials_a', 'initials_b']) assert.equal((await previewOf(page, field)).hidden, false, `${field} is signed`);
      await signButton(page, 'initials_b').click();
      await page.locator('#tab-type').click();
      assert.equal(await page.locator('#typed').inputValue(), 'GH');
      await page.locator('.sig-style').nth(2).waitFor();
      await screenshot(page, path.join(SHOTS, 'typed-en-390.png'));
      await page.locator('#sig-cancel').click();
      await page.locator('#consent').check();
      await page.locator('#finish').click();
      await page.locator('h1', { hasText: 'You signed' }).waitFor({ timeout: 30_000 });
      assert.deepEqual(problems, []);
    } finally {
      await ctx.close();
    }
    const pdf = await sealedPdfOf(b.h, formId);
    const file = path.join(SHOTS, 'sealed-drawn.pdf');
    fs.writeFileSync(file, pdf);
    assert.ok(spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout.includes('Signature is Valid'));
    spawnSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', file, path.join(SHOTS, 'sealed-drawn-page')]);
  });

  for (const [lang, name, faces] of [['ar', 'ليلى حسن', ['Amiri', 'Amiri Slanted', 'Lateef']], ['zh', '王小明', ['LXGW WenKai', 'AR PL UKai', 'Klee One']], ['he', 'דנה לוי', ['Shofar', 'Keter YG', 'Hadasim CLM']]] as const) {
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      it(`${lang} at ${width}px: the sheet in the signer's language, the name in its script's three styles, axe clean`, async () => {
        const { url } = await send(`${lang}-${width}@example.com`, name, lang);
        const ctx = await b.browser.newContext({ viewport: { width, height }, deviceScaleFactor: width < 500 ? 2 : 1, hasTouch: width < 500, isMobile: width < 500 });
        const page = await ctx.newPage();
        const problems: string[] = [];
        page.on('pageerror', (e) => problems.push(e.message));
        try {
          await page.goto(url, { waitUntil: 'load' });
          // The status is in the signer's language (Hebrew and Arabic say "one page" in words): the ink decides.
          await waitForDocument(page, /./);
          await signButton(page, 'signature_a').click();
          await page.locator('#tab-type').click();
          assert.equal(await page.locator('#typed').inputValue(), name);
          await page.locator('.sig-style').nth(2).waitFor();
          assert.deepEqual(await page.locator('.sig-style-name').allTextContents(), faces);
          assert.notEqual(await page.locator('#tab-upload').textContent(), 'Upload', 'the words are translated');
          const widths = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as number[];
          assert.ok(widths[0]! <= widths[1]!, `no horizontal scroll: ${widths.join(' > ')}`);
          await assertAxeClean(page, `${lang} ${width} typed`);
          await screenshot(page, path.join(SHOTS, `typed-${lang}-${width}.png`));
          await page.locator('#tab-upload').click();
          await screenshot(page, path.join(SHOTS, `upload-${lang}-${width}.png`));
          assert.deepEqual(problems, []);
        } finally {
          await ctx.close();
        }
      });
    }
  }
});
