import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../pages/chromium.js';
import { compareLines, renderPdfBox, type InkMap } from '../shared/line-image.js';
import { MIXED_DIRECTION } from '../shared/mixed-direction.js';
import { harnessWithWorker } from '../shared/worker-harness.js';
import { sealedMixedDirectionForm, type MixedDirectionBox } from './support.js';

// The sealed PDF's right-to-left values drawn as a browser draws them: each string of the
// mixed-direction table, typed into an AcroForm field and a flat-page field and sealed, is rendered
// with pdftoppm and compared with Chromium's rendering of the same string in a dir="rtl" element in
// the same face (DejaVu Sans, which the PDF embeds for Arabic and Hebrew). Both are cropped to their
// ink and brought to one size; then window by window, left to right, the ink must match (each window
// may slide a little: kerning and hinting differ between the engines, the order of glyphs must not).
// Digits printed reversed ("21" for "12"), runs in the wrong order or unmirrored brackets fail.
// Images of both go to test-results/rtl-values/ (look at them).

const SHOTS = path.resolve('test-results', 'rtl-values');
const DPI = 288;
// Measured: the fixed drawing scores at most 0.28 on every string; the old one (digits reversed, runs
// in logical order, brackets unmirrored) at least 0.40 on each string.
const MAX_WINDOW_DIFFERENCE = 0.34;
const require = createRequire(import.meta.url);
const DEJAVU = fs.readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')).toString('base64');

async function chromiumInk(page: Page, text: string): Promise<{ ink: InkMap; png: Buffer }> {
  await page.setContent(`<!doctype html><meta charset="utf-8"><style>
    @font-face { font-family: "Same Face"; src: url(data:font/ttf;base64,${DEJAVU}) format("truetype"); }
    body { margin: 0; background: #fff; } span { font: 48px "Same Face"; white-space: pre; color: #000; font-kerning: none; display: inline-block; padding: 16px; }
  </style><span dir="rtl"></span>`);
  await page.locator('span').evaluate((el, t) => { el.textContent = t; }, text);
  await page.evaluate('document.fonts.ready');
  const png = await page.locator('span').screenshot();
  // The screenshot's pixels, decoded by the browser itself (no PNG decoder in the repository).
  const grey = await page.evaluate<{ width: number; height: number; ink: number[] }>(`(async () => {
    const image = await createImageBitmap(await (await fetch('data:image/png;base64,${png.toString('base64')}')).blob());
    const canvas = new OffscreenCanvas(image.width, image.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    const { data } = ctx.getImageData(0, 0, image.width, image.height);
    const ink = [];
    for (let i = 0; i < data.length; i += 4) ink.push(1 - (0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2]) / 255);
    return { width: image.width, height: image.height, ink };
  })()`);
  return { ink: { width: grey.width, height: grey.height, ink: Float32Array.from(grey.ink) }, png };
}

describe('right-to-left values in the sealed PDF look as Chromium draws them (pdftoppm against dir="rtl")', () => {
  const harness = harnessWithWorker('sqlite');
  let browser: Browser;
  let page: Page;
  let dir: string;
  let file: string;
  let boxes: MixedDirectionBox[];
  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const sealed = await sealedMixedDirectionForm(harness());
    boxes = sealed.boxes;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-rtl-'));
    file = path.join(dir, 'sealed.pdf');
    fs.writeFileSync(file, sealed.pdf);
    fs.copyFileSync(file, path.join(SHOTS, 'sealed.pdf'));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    page = await browser.newPage({ deviceScaleFactor: 1 });
  });
  after(async () => {
    await browser?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const [i, c] of MIXED_DIRECTION.entries()) {
    it(`${c.name}: "${c.text}"`, async () => {
      const reference = await chromiumInk(page, c.text);
      fs.writeFileSync(path.join(SHOTS, `${i}-chromium.png`), reference.png);
      for (const box of boxes.filter((b) => b.name.endsWith(`_${i}`))) {
        // Inside the field, clear of its edges.
        const drawn = renderPdfBox(file, 1, { x: box.x + 1, y: box.y + 1, width: box.width - 2, height: box.height - 2 }, DPI);
        const result = compareLines(reference.ink, drawn);
        if (process.env.RTL_DEBUG) console.log(JSON.stringify({ i, drawn: box.drawn, ...result }));
        assert.ok(Math.abs(result.widthRatio - 1) < 0.08, `${box.drawn}: as wide as Chromium's (ratio ${result.widthRatio.toFixed(3)})`);
        assert.ok(result.worst <= MAX_WINDOW_DIFFERENCE,
          `${box.drawn}: glyphs in Chromium's order (worst window ${result.worst.toFixed(2)} at ${result.worstAt} px of ${reference.ink.width})`);
      }
    });
  }
});
