import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// Checks the signing-page browser tests share: axe-core's verdict and "the document is drawn".

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core finds no serious or critical violation on the page as it is now. */
export async function assertAxeClean(page: Page, label: string): Promise<void> {
  // axe-core's 0.5 MB once per document: the dashboard checks one document many times over (it is one
  // page), and each copy was sent over the DevTools pipe and compiled again. A new document has none.
  if (!(await page.evaluate("typeof axe !== 'undefined'"))) await page.evaluate(`${AXE}\n;0`);
  // Run in the page as a string: this file compiles without the DOM library.
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
    r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 3) })))`)) as Array<{ id: string; impact: string; targets: string[] }>;
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${label}: axe-core serious/critical violations`);
}

/** The page count is shown and pdf.js drew ink on the first page's canvas. */
export async function waitForDocument(page: Page, status: RegExp = /page/, timeout = 30_000): Promise<void> {
  await page.locator('#doc-status', { hasText: status }).waitFor({ timeout });
  await waitForInk(page, '.page > canvas', timeout);
}

// How often waitForInk reads the canvas back. Playwright's default polls on every animation frame, and
// each poll copies the whole canvas out of the renderer and scans it (a 2x phone page is some 6 million
// pixels), some sixty times a second while pdf.js was still drawing. Ten reads a second see the ink as
// surely, at most 100 ms later.
const INK_POLL_MS = 100;

/** The canvas `selector` finds carries ink: pdf.js drew it (the signing page and the dashboard's builder). */
export async function waitForInk(page: Page, selector: string, timeout = 30_000): Promise<void> {
  // A function, not a string: a string predicate is re-run with eval, which the pages' CSP forbids.
  await page.waitForFunction((sel) => {
    type Canvas = { width: number; height: number; getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } };
    const c = (globalThis as unknown as { document: { querySelector(s: string): Canvas | null } }).document.querySelector(sel);
    if (!c || c.width === 0) return false;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 0; i < d.length; i += 4) if (d[i]! < 100) return true;
    return false;
  }, selector, { timeout, polling: INK_POLL_MS });
}
