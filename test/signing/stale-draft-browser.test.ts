import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { openBrowserHarness, type BrowserHarness } from '../pages/chromium.js';
import { waitForDocument } from './page-checks.js';
import { sendTo, twoSignerTemplate } from './support.js';

// A tab left open on an older draft (issue 43): its sessionStorage copy, restored on reload, must not
// replace what the signer saved since on another device; its own input newer than the server's still
// comes back on a reload of the same tab.

describe('a stale tab and a newer server draft', () => {
  let b: BrowserHarness;
  let templateId: string;
  before(async () => {
    b = await openBrowserHarness();
    templateId = await twoSignerTemplate(b.h, b.h.actors.aTest.partition);
  });
  after(() => b?.close());

  const NAME = '[data-field="tenant_name"]';
  /** Types `text` in the name field and waits for the page to save it on the server. */
  async function typeAndSave(page: Page, token: string, text: string): Promise<void> {
    const saved = page.waitForResponse((r) => r.url().endsWith(`/sign/${token}/draft`) && r.request().method() === 'PUT' && r.status() === 200);
    await page.locator(NAME).fill(text);
    await saved;
  }

  it('the reload of an older tab shows the newer draft; a tab with the newest input keeps its own', async () => {
    const { tokens } = await sendTo(b.h, b.h.actors.aTest, templateId, ['stale@example.com', 'other-stale@example.com']);
    const url = `${b.origin}/sign/${tokens[0]}`;
    const device = { viewport: { width: 1280, height: 900 } };
    const first = await b.browser.newContext(device);
    const second = await b.browser.newContext(device);
    try {
      const old = await first.newPage();
      old.on('dialog', (d) => void d.accept());
      await old.goto(url);
      await waitForDocument(old);
      await typeAndSave(old, tokens[0]!, 'Ada Old');

      const other = await second.newPage();
      other.on('dialog', (d) => void d.accept());
      await other.goto(url);
      await waitForDocument(other);
      assert.equal(await other.locator(NAME).inputValue(), 'Ada Old', 'the server draft opens on the other device');
      await typeAndSave(other, tokens[0]!, 'Ada New');

      // The old tab reloads: its own copy (Ada Old) is older than the server's draft, which wins.
      await old.reload();
      await waitForDocument(old);
      assert.equal(await old.locator(NAME).inputValue(), 'Ada New');

      // The newer tab reloads: its copy is as new as the server's, and comes back as typed.
      await other.reload();
      await waitForDocument(other);
      assert.equal(await other.locator(NAME).inputValue(), 'Ada New');
    } finally {
      await first.close();
      await second.close();
    }
  });
});
