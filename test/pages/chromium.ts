import { chromium, type Browser, type Page } from 'playwright-core';
import { createHarness, type Harness } from '../harness.js';
import { listen } from '../api/raw-http.js';

// Debian's Chromium against a real listening app, for page tests (screenshots, console, requests).

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** A phone as the signing-page tests and bench see it: 390×844 CSS px, 2× pixels, touch. */
export const PHONE_CONTEXT = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true } as const;

export interface BrowserHarness {
  h: Harness;
  browser: Browser;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

export async function openBrowserHarness(opts: Parameters<typeof createHarness>[1] = {}): Promise<BrowserHarness> {
  const h = await createHarness('sqlite', opts);
  const origin = `http://127.0.0.1:${await listen(h.app)}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  return {
    h,
    browser,
    origin,
    async close() {
      await browser.close();
      await h.close();
    },
  };
}

/**
 * Screenshots for people to look at, taken only with TEST_SCREENSHOTS=1 (`TEST_SCREENSHOTS=1 node
 * --import tsx scripts/run-tests.ts browser <file>`): no test reads them, and encoding them was the
 * largest part of the browser group's CPU (a full-page PNG at 2x costs Chromium about a second).
 * Screenshots a test does read (test/evidence/rtl-values-browser.test.ts) are taken as before.
 */
export const SCREENSHOTS = process.env.TEST_SCREENSHOTS === '1';

/** A screenshot of `page` into `file` when TEST_SCREENSHOTS=1; nothing otherwise. */
export async function screenshot(page: Page, file: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: file, ...opts });
}

/** URLs a page asked for that are not this server (data: and blob: stay in the page). */
export function requestsAway(origin: string, requests: string[]): string[] {
  return requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
}
