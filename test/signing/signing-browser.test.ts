import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createHarness, type Harness } from '../harness.js';
import { assertAxeClean, waitForDocument } from './page-checks.js';
import { sampleTemplate, sendTo, twoSignerTemplate } from './support.js';
import { CHROMIUM, CHROMIUM_FLAGS, screenshot } from '../pages/chromium.js';

// The signing page in Debian's Chromium, as a signer uses it: open the link from the send response,
// fill the fields, draw a signature with the mouse (or type initials with the keyboard), consent,
// finish, see the confirmation. One signer on the sample template and two on a two-signer template,
// at 1280 px and 375 px. Any page error, console error or request leaving the server fails the test;
// axe-core finds no serious or critical violation. Screenshots of each step go to test-results/.

const SHOTS = path.resolve('test-results', 'signing');

describe('signing page in Chromium', () => {
  let h: Harness;
  let browser: Browser;
  let origin: string;
  const logLines: string[] = [];

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    h = await createHarness('sqlite', { logStream: { write: (line) => void logLines.push(line) } });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address();
    assert.ok(address && typeof address === 'object');
    origin = `http://127.0.0.1:${address.port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  });
  after(async () => {
    await browser?.close();
    await h?.close();
  });

  async function signer(width: number) {
    const context = await browser.newContext({ viewport: { width, height: width < 500 ? 760 : 900 }, deviceScaleFactor: 1, hasTouch: width < 500 });
    const page = await context.newPage();
    const problems: string[] = [];
    const away: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('request', (r) => {
      const u = r.url();
      if (!u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:')) away.push(u);
    });
    return { context, page, problems, away };
  }

  const axe = assertAxeClean;

  /** Draws a wavy stroke on the pad with real mouse moves, or with a finger (touch events through the DevTools protocol). */
  async function drawSignature(page: Page, input: 'mouse' | 'touch' = 'mouse'): Promise<void> {
    const box = await page.locator('#pad').boundingBox();
    assert.ok(box);
    const y = box.y + box.height / 2;
    const points = Array.from({ length: 31 }, (_, i) => ({ x: box.x + 20 + i * ((box.width - 40) / 30), y: y + Math.sin(i / 3) * box.height * 0.3 }));
    if (input === 'mouse') {
      await page.mouse.move(points[0]!.x, points[0]!.y);
      await page.mouse.down();
      for (const p of points.slice(1)) await page.mouse.move(p.x, p.y, { steps: 2 });
      await page.mouse.up();
      return;
    }
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [points[0]!] });
    for (const p of points.slice(1)) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  }

  async function signFlow(o: { token: string; width: number; name: string; fill: (page: Page) => Promise<void>; expectAfter: RegExp }): Promise<void> {
    const s = await signer(o.width);
    const shot = (step: string) => screenshot(s.page, path.join(SHOTS, `${o.name}-${o.width}-${step}.png`), { fullPage: true });
    try {
      const res = await s.page.goto(`${origin}/sign/${o.token}`, { waitUntil: 'load' });
      assert.equal(res?.status(), 200);
      const headers = await res!.allHeaders();
      assert.equal(headers['referrer-policy'], 'no-referrer');
      assert.match(headers['content-security-policy'] ?? '', /frame-ancestors 'none'/);
      await waitForDocument(s.page);
      await shot('1-opened');
      await axe(s.page, `${o.name} open page`);
      // Finishing with nothing filled names what is missing and moves focus to it.
      await s.page.locator('#finish').click();
      const error = s.page.locator('#form-error');
      await error.waitFor({ state: 'visible' });
      assert.match(await error.locator('.left-text').innerText(), /^\d left: \S/);
      await shot('2-missing');
      await o.fill(s.page);
      await s.page.locator('#consent').check();
      await shot('3-filled');
      await axe(s.page, `${o.name} filled page`);
      await s.page.locator('#finish').click();
      await s.page.locator('h1', { hasText: 'You signed' }).waitFor({ timeout: 30_000 });
      assert.match(await s.page.locator('main').innerText(), o.expectAfter);
      await shot('4-confirmation');
      await axe(s.page, `${o.name} confirmation`);
      if (o.width < 500) {
        const overflow = (await s.page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
        assert.ok(overflow <= 0, `no horizontal scrolling at ${o.width} px (overflow ${overflow})`);
      }
      assert.deepEqual(s.problems, [], 'no page or console error');
      assert.deepEqual(s.away, [], 'no request leaves the server');
    } finally {
      await s.context.close();
    }
  }

  async function addDrawnSignature(page: Page, button: string, input: 'mouse' | 'touch' = 'mouse'): Promise<void> {
    await page.getByRole('button', { name: button }).first().click();
    await page.locator('#sig-dialog').waitFor({ state: 'visible' });
    await drawSignature(page, input);
    await screenshot(page, path.join(SHOTS, `dialog-${page.viewportSize()!.width}.png`));
    await page.locator('#sig-apply').click();
    await page.locator('#sig-dialog').waitFor({ state: 'hidden' });
  }

  it('the expired page and the unknown-link page read well at 375 px and pass axe-core', async () => {
    const p = h.actors.aTest.partition;
    const f = await sendTo(h, h.actors.aTest, await sampleTemplate(h, p), ['late@example.com']);
    await h.deps.database.db.updateTable('forms').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', f.formId).execute();
    for (const [name, token, status, heading] of [['expired', f.tokens[0]!, 410, /expired/], ['unknown', 'x'.repeat(43), 404, /not valid/i]] as const) {
      const s = await signer(375);
      try {
        const res = await s.page.goto(`${origin}/sign/${token}`, { waitUntil: 'load' });
        assert.equal(res?.status(), status);
        assert.match(await s.page.locator('h1').innerText(), heading);
        await screenshot(s.page, path.join(SHOTS, `${name}-375.png`), { fullPage: true });
        await axe(s.page, `${name} page`);
        assert.deepEqual(s.problems.filter((m) => !/status of 4\d\d/.test(m)), [], 'no page or console error besides the status itself');
        assert.deepEqual(s.away, []);
      } finally {
        await s.context.close();
      }
    }
  });

  for (const width of [1280, 375]) {
    it(`one signer on the sample template at ${width} px: fill, draw, consent, finish`, async () => {
      const p = h.actors.aTest.partition;
      const f = await sendTo(h, h.actors.aTest, await sampleTemplate(h, p), [`solo-${width}@example.com`]);
      await signFlow({
        token: f.tokens[0]!, width, name: 'sample',
        fill: async (page) => {
          await page.getByRole('textbox', { name: 'Full name', exact: true }).fill('Ada Lovelace');
          await page.getByRole('textbox', { name: 'Email', exact: true }).fill('ada@example.com');
          await page.getByRole('checkbox', { name: 'I agree to the terms above', exact: true }).check();
          await addDrawnSignature(page, 'Add signature');
        },
        expectAfter: /being sealed/,
      });
      const form = await h.deps.database.db.selectFrom('forms').select('values').where('id', '=', f.formId).executeTakeFirstOrThrow();
      const values = JSON.parse(form.values) as Record<string, unknown>;
      assert.equal(values['full_name'], 'Ada Lovelace');
      assert.equal(values['agree'], true);
      assert.match(String(values['signature']), /^sha256:/);
      const sigs = await h.deps.database.db.selectFrom('signatures').selectAll().where('form_id', '=', f.formId).execute();
      assert.equal(sigs.length, 1);
      assert.equal(sigs[0]!.method, 'drawn');
      assert.ok(sigs[0]!.width > 100, `a drawn stroke, cropped: ${sigs[0]!.width}×${sigs[0]!.height}`);
      const jobs = await h.deps.database.db.selectFrom('outbox').select('payload').where('kind', '=', 'form.seal').execute();
      assert.ok(jobs.some((j) => j.payload.includes(f.formId)), 'the seal job is enqueued');
    });
  }

  it('two signers on a two-signer template: the first at 1280 px (drawn signature, typed initials by keyboard), the second at 375 px drawing by touch', async () => {
    const p = h.actors.aTest.partition;
    const f = await sendTo(h, h.actors.aTest, await twoSignerTemplate(h, p), ['tenant@example.com', 'landlord@example.com']);
    await signFlow({
      token: f.tokens[0]!, width: 1280, name: 'two-signers-first',
      fill: async (page) => {
        await page.getByRole('textbox', { name: 'Tenant name', exact: true }).fill('Ada Lovelace');
        await addDrawnSignature(page, 'Add signature');
        // Initials by keyboard only: open, switch to Type with the arrow key, type, Enter.
        await page.getByRole('button', { name: 'Add initials' }).focus();
        await page.keyboard.press('Enter');
        await page.locator('#sig-dialog').waitFor({ state: 'visible' });
        await page.keyboard.press('ArrowRight');
        await page.locator('#typed').focus();
        await page.keyboard.type('AL');
        await screenshot(page, path.join(SHOTS, 'typed-initials.png'));
        await page.keyboard.press('Enter');
        await page.locator('#sig-dialog').waitFor({ state: 'hidden' });
      },
      expectAfter: /Waiting for one other signer/,
    });
    await signFlow({
      token: f.tokens[1]!, width: 375, name: 'two-signers-second',
      fill: async (page) => {
        await page.getByRole('textbox', { name: 'Landlord name', exact: true }).fill('Charles Babbage');
        await addDrawnSignature(page, 'Add signature', 'touch');
      },
      expectAfter: /being sealed/,
    });
    const sigs = await h.deps.database.db.selectFrom('signatures').select(['field_name', 'method']).where('form_id', '=', f.formId).orderBy('field_name').execute();
    assert.deepEqual(sigs.map((s) => [s.field_name, s.method]), [['landlord_signature', 'drawn'], ['tenant_initials', 'typed'], ['tenant_signature', 'drawn']]);
    // The signing tokens never reached the request log.
    for (const token of f.tokens) assert.ok(!logLines.some((l) => l.includes(token)), 'a signing token in the log');
    assert.ok(logLines.some((l) => l.includes('"route":"/sign/:token"')), 'signing requests are logged by their route template');
  });
});
