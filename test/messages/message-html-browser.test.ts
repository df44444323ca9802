import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { composeCompletedCopy, composeMessage, composeReminder, composeSenderNotice, composeVoidNotice, type ComposedMessage } from '../../src/domain/sending/compose-message.js';
import { CHROMIUM, CHROMIUM_FLAGS, screenshot } from '../pages/chromium.js';
import { assertAxeClean } from '../signing/page-checks.js';

// Every kind of e-mail's HTML part as a mail client shows it: rendered in Chromium at a desktop and a
// phone width, and axe-core finds no serious or critical violation (colour contrast included; the footer
// line's contrast is measured and at least 4.5:1).
// Screenshots go to test-results/messages/.

const SHOTS = path.resolve('test-results', 'messages');
const copy = { attached: false, url: 'https://sign.example.com/api/v1/files/pdf/abc.def', urlExpiresAt: '2026-12-27T09:00:00.000Z' };
const common = { accountName: 'Acme Rentals', formName: 'Residential lease <2026> & annex' };

const KINDS: Record<string, ComposedMessage> = {
  invite: composeMessage({ ...common, channel: 'email', to: 'ada@example.com', recipientName: 'Ada Lovelace', signingUrl: 'https://sign.example.com/sign/tok', expiresAt: '2026-12-24T14:05:00.000Z' }),
  reminder: composeReminder({ ...common, channel: 'email', to: 'ada@example.com', recipientName: null, signingUrl: 'https://sign.example.com/sign/tok', expiresAt: null }),
  void: composeVoidNotice({ ...common, channel: 'email', to: 'ada@example.com', recipientName: 'Ada Lovelace', reason: 'Wrong rent.' }),
  'copy-attached': composeCompletedCopy({ ...common, channel: 'email', to: 'ada@example.com', recipientName: 'Ada Lovelace', copy: { ...copy, attached: true } }),
  'copy-link': composeCompletedCopy({ ...common, channel: 'email', to: 'ada@example.com', recipientName: null, copy }),
  'notice-completed': composeSenderNotice({ ...common, kind: 'completed', to: 'office@acme.test', formId: 'form_x', copy: { ...copy, attached: true }, signers: ['Ada Lovelace', 'Charles Babbage'] }),
  'notice-declined': composeSenderNotice({ ...common, kind: 'declined', to: 'office@acme.test', formId: 'form_x', recipient: 'Ada Lovelace', reason: 'The rent is wrong.', at: '2026-11-27T10:15:00.000Z' }),
  'notice-viewed': composeSenderNotice({ ...common, kind: 'viewed', to: 'office@acme.test', formId: 'form_x', recipient: 'ada@example.com', at: '2026-11-27T10:15:00.000Z' }),
};

describe('message HTML in Chromium', () => {
  let browser: Browser;
  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  });
  after(() => browser.close());

  for (const [kind, message] of Object.entries(KINDS)) {
    it(`${kind}: axe-clean at 1280 and 390 px, the footer line shown, nothing wider than the screen`, async () => {
      assert.ok(message.html, 'an HTML part');
      for (const width of [1280, 390]) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        try {
          await page.setContent(message.html, { waitUntil: 'load' });
          await assertAxeClean(page, `${kind} at ${width}px`);
          const footer = message.text.trimEnd().split('\n').at(-1)!;
          assert.match(footer, /^You received this (e-mail|reminder) because /);
          // The footer's contrast in axe-core's own measure: measured (not left "incomplete") and at least
          // 4.5:1, WCAG AA for its 12 px text.
          const measured = (await page.evaluate(`axe.run(document, { runOnly: ['color-contrast'] }).then((r) =>
            r.passes.concat(r.violations, r.incomplete).flatMap((rule) => rule.nodes)
              .filter((n) => document.querySelector(n.target[0]).textContent.trim() === ${JSON.stringify(footer.trim())})
              .map((n) => (n.any[0] && n.any[0].data && n.any[0].data.contrastRatio) || 0))`)) as number[];
          assert.equal(measured.length, 1, `${kind}: axe-core measured the footer`);
          assert.ok(measured[0]! >= 4.5, `${kind}: the footer's contrast is ${measured[0]}:1 (at least 4.5:1)`);
          const shown = (await page.evaluate('document.body.innerText')) as string;
          assert.ok(shown.includes(footer), `${kind}: the text part's footer line is in the HTML as shown`);
          const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
          assert.ok(overflow <= 0, `${kind} at ${width}px scrolls sideways by ${overflow}px`);
          await screenshot(page, path.join(SHOTS, `${kind}-${width}.png`), { fullPage: true });
        } finally {
          await page.close();
        }
      }
    });
  }
});
