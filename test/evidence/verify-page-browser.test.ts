import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openBrowserHarness, requestsAway, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { flipSignedByte, sealedWithServiceCertificate } from './support.js';

// The /verify page in Chromium at 1280 and 390 px: a PDF chosen in the file input is checked and the
// verdict shown; one byte flipped shows "Not valid"; content smuggled under the DSS shows "Changed
// after signing" and where; another signer's B-LTA (as pyHanko writes it) shows "Valid signatures",
// not ours; no console error, no request leaves the server, nothing wider than the
// phone. Screenshots go to PAGE_SHOTS_DIR when set (to look at them).

describe('/verify in Chromium', () => {
  let b: BrowserHarness;
  let dir: string;
  let sealedFile: string;
  let flippedFile: string;
  const shots = process.env.PAGE_SHOTS_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-shots-'));

  before(async () => {
    b = await openBrowserHarness();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-verify-page-'));
    const sealed = await sealedWithServiceCertificate(b.h);
    sealedFile = path.join(dir, 'sealed.pdf');
    flippedFile = path.join(dir, 'changed.pdf');
    fs.writeFileSync(sealedFile, sealed);
    fs.writeFileSync(flippedFile, flipSignedByte(sealed));
  });
  after(async () => {
    await b?.close();
    fs.rmSync(dir, { recursive: true, force: true });
    if (!process.env.PAGE_SHOTS_DIR) fs.rmSync(shots, { recursive: true, force: true });
  });

  for (const width of [1280, 390]) {
    it(`at ${width} px: our seal verifies as sealed by this service; a changed copy does not`, async () => {
      const context = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('request', (r) => requests.push(r.url()));
      try {
        const res = await page.goto(`${b.origin}/verify`, { waitUntil: 'networkidle' });
        assert.equal(res?.status(), 200);
        await screenshot(page, path.join(shots, `verify-empty-${width}.png`), { fullPage: true });
        await page.setInputFiles('#file', sealedFile);
        await page.locator('#verdict', { hasText: 'Valid: sealed by this service' }).waitFor({ timeout: 30_000 });
        const facts = await page.locator('#facts').innerText();
        assert.match(facts, /Issued by this service\s+Yes/);
        assert.match(facts, /Form\s+form_VerifyPageTest0000000001/);
        assert.match(await page.locator('#signatures').innerText(), /Signature “Seal”\s+valid/);
        await screenshot(page, path.join(shots, `verify-sealed-${width}.png`), { fullPage: true });
        const scrollWidth = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
        assert.ok(scrollWidth <= width, `no sideways scroll at ${width} px (scrollWidth ${scrollWidth})`);

        await page.setInputFiles('#file', flippedFile);
        await page.locator('#verdict', { hasText: 'Not valid' }).waitFor({ timeout: 30_000 });
        assert.match(await page.locator('#facts').innerText(), /Intact\s+No/);
        await screenshot(page, path.join(shots, `verify-changed-${width}.png`), { fullPage: true });

        // The reported attack (issue 34): page content rewritten and listed under the DSS. Intact
        // signatures, but the page must say what changed and where, never "Valid".
        await page.setInputFiles('#file', 'test/fixtures/pdfs/attacks/dss-smuggled-content.pdf');
        await page.locator('#verdict', { hasText: 'Changed after signing' }).waitFor({ timeout: 30_000 });
        assert.match(await page.locator('#verdict-detail').innerText(), /page content on page 1/);
        assert.match(await page.locator('#signatures').innerText(), /Changed after it\s+other: .*page content on page 1/);
        await screenshot(page, path.join(shots, `verify-attack-${width}.png`), { fullPage: true });
        // Another signer's B-LTA as pyHanko writes it: valid, not ours, its later revisions LTV updates.
        await page.setInputFiles('#file', 'test/fixtures/pdfs/attacks/pyhanko-blta.pdf');
        await page.locator('#verdict', { hasText: 'Valid signatures' }).waitFor({ timeout: 30_000 });
        assert.match(await page.locator('#facts').innerText(), /Issued by this service\s+No/);
        assert.match(await page.locator('#signatures').innerText(), /Signature “Signature1”\s+valid/);
        assert.doesNotMatch(await page.locator('#signatures').innerText(), /Changed after it\s+(other|form_filling|annotations)/);
        await screenshot(page, path.join(shots, `verify-foreign-blta-${width}.png`), { fullPage: true });
        await page.setInputFiles('#file', 'test/fixtures/pdfs/attacks/dss-smuggled-content.pdf');
        await page.locator('#verdict', { hasText: 'Changed after signing' }).waitFor({ timeout: 30_000 });
        const attackScroll = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
        assert.ok(attackScroll <= width, `no sideways scroll at ${width} px with the changes listed (scrollWidth ${attackScroll})`);
        assert.deepEqual(problems, []);
        assert.deepEqual(requestsAway(b.origin, requests), [], 'no request leaves the server');
      } finally {
        await context.close();
      }
    });
  }
});
