import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { openBrowserHarness, requestsAway, screenshot, type BrowserHarness } from '../pages/chromium.js';
import { sampleTemplate, sendTo } from '../signing/support.js';

// Embedded signing in Chromium (issue 26, item 3): a host page on another loopback port loads
// /embed.js and shows <formsign-signing src="…signing_url">; the recipient signs inside the frame and
// the host hears formsign:completed exactly once. A host whose origin is not allowed cannot frame the
// page at all (CSP frame-ancestors). At 390 px neither the host nor the frame scrolls sideways; the
// signing page asks nothing of any other server. Screenshots go to test-results/embed/.

const SHOTS = path.resolve('test-results', 'embed');

/** The frame's height on the host page (evaluated in the browser). */
const FRAME_HEIGHT = "document.querySelector('formsign-signing').shadowRoot.querySelector('iframe').getBoundingClientRect().height";

interface HostEvent { type: string; detail: { formId: string; recipientId: string; state?: string; complete?: boolean; reason?: string; code?: string } }

/** A host page of an integrator's app, served on its own port. */
function hostPage(appOrigin: string, signingUrl: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme — sign your lease</title>
<style>body{margin:0;font:16px system-ui,sans-serif;background:#f3f4f8}header{background:#1d2b53;color:#fff;padding:12px 16px}main{max-width:1000px;margin:0 auto;padding:16px}</style>
<script src="${appOrigin}/embed.js"></script>
</head><body><header>Acme Rentals</header><main><h1>Sign your lease</h1>
<formsign-signing src="${signingUrl}"></formsign-signing>
<p id="after">Questions? Call us.</p></main>
<script>
window.hostEvents = [];
for (const type of ['formsign:loaded', 'formsign:completed', 'formsign:declined', 'formsign:waiting', 'formsign:voided', 'formsign:expired', 'formsign:error']) {
  document.addEventListener(type, (e) => window.hostEvents.push({ type: e.type, detail: e.detail }));
}
</script></body></html>`;
}

describe('embedded signing in Chromium', () => {
  let b: BrowserHarness;
  let host: http.Server;
  let hostPort: number;
  const pages = new Map<string, string>();

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    b = await openBrowserHarness();
    host = http.createServer((req, res) => {
      const body = pages.get(req.url ?? '');
      if (req.url === '/favicon.ico') return void res.writeHead(204).end();
      res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostPort = (host.address() as AddressInfo).port;
    // The host is allowed as http://localhost:<port>; the same page as http://127.0.0.1:<port> is another origin.
    const added = await b.h.request({ method: 'POST', url: '/api/v1/embed/origins', as: b.h.actors.aTest, json: { origin: `http://localhost:${hostPort}` } });
    assert.equal(added.status, 201, added.body);
  });
  after(async () => {
    await new Promise((resolve) => host.close(resolve));
    await b.close();
  });

  const signingUrl = async (email: string) => {
    const f = await sendTo(b.h, b.h.actors.aTest, await sampleTemplate(b.h, b.h.actors.aTest.partition), [email]);
    return { ...f, url: `${b.origin}/sign/${f.tokens[0]}` };
  };
  const events = (page: Page) => page.evaluate('window.hostEvents') as Promise<HostEvent[]>;

  for (const width of [1280, 390]) {
    it(`at ${width} px: the host frames the page, it sizes itself, the signer signs inside, formsign:completed comes once`, async () => {
      const f = await signingUrl(`embed-${width}@example.com`);
      pages.set(`/lease-${width}`, hostPage(b.origin, f.url));
      const context = await b.browser.newContext({ viewport: { width, height: 800 }, deviceScaleFactor: 1, hasTouch: width < 500 });
      const page = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      page.on('request', (r) => requests.push(r.url()));
      try {
        await page.goto(`http://localhost:${hostPort}/lease-${width}`, { waitUntil: 'load' });
        const frame = page.frameLocator('formsign-signing iframe');
        await frame.locator('.page canvas, #pages canvas').first().waitFor({ timeout: 30_000 });
        await page.waitForFunction('window.hostEvents.some((e) => e.type === "formsign:loaded")', undefined, { timeout: 15_000 });
        const loaded = (await events(page)).find((e) => e.type === 'formsign:loaded')!;
        assert.deepEqual([loaded.detail.formId, loaded.detail.recipientId, loaded.detail.state], [f.formId, f.recipientIds[0], 'open']);
        // The frame fits its content: as tall as the page inside (no scrolling within it).
        await page.waitForFunction(`${FRAME_HEIGHT} > 600`, undefined, { timeout: 15_000 });
        const inner = await frame.locator('html').evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight, overflowX: el.scrollWidth - el.clientWidth }));
        assert.ok(inner.scroll - inner.client <= 2, `the frame shows all of the page (${inner.scroll} vs ${inner.client})`);
        assert.ok(inner.overflowX <= 0, `no horizontal scroll inside the frame at ${width} px (${inner.overflowX})`);
        const hostOverflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
        assert.ok(hostOverflow <= 0, `no horizontal scroll on the host at ${width} px (${hostOverflow})`);
        await screenshot(page, path.join(SHOTS, `host-${width}-opened.png`));

        await frame.getByRole('textbox', { name: 'Full name', exact: true }).fill('Ada Lovelace');
        await frame.getByRole('textbox', { name: 'Email', exact: true }).fill('ada@example.com');
        await frame.getByRole('checkbox', { name: 'I agree to the terms above', exact: true }).check();
        await frame.getByRole('button', { name: 'Add signature' }).first().click();
        await frame.locator('#sig-dialog').waitFor({ state: 'visible' });
        await frame.locator('#tab-type').click();
        await frame.locator('#typed').fill('Ada Lovelace');
        await frame.locator('#sig-apply').click();
        await frame.locator('#sig-dialog').waitFor({ state: 'hidden' });
        await frame.locator('#consent').check();
        const openHeight = (await page.evaluate(FRAME_HEIGHT)) as number;
        await frame.locator('#finish').click();
        await frame.locator('h1', { hasText: 'You signed' }).waitFor({ timeout: 30_000 });
        await page.waitForFunction('window.hostEvents.some((e) => e.type === "formsign:completed")', undefined, { timeout: 15_000 });
        // The confirmation page loads in the frame and says so; nothing repeats the completion.
        await page.waitForFunction('window.hostEvents.filter((e) => e.type === "formsign:loaded").length >= 2', undefined, { timeout: 15_000 });
        await page.waitForTimeout(500);
        const all = await events(page);
        const completed = all.filter((e) => e.type === 'formsign:completed');
        assert.equal(completed.length, 1, JSON.stringify(all));
        assert.deepEqual([completed[0]!.detail.formId, completed[0]!.detail.recipientId, completed[0]!.detail.complete], [f.formId, f.recipientIds[0], true]);
        assert.equal(all.at(-1)!.detail.state, 'signed');
        assert.ok(!all.some((e) => e.type === 'formsign:error'), JSON.stringify(all));
        // The confirmation is shorter: the frame shrinks to it.
        await page.waitForFunction(`${FRAME_HEIGHT} < ${openHeight / 2}`, undefined, { timeout: 15_000 });
        await page.evaluate('window.scrollTo(0, 0)');
        await screenshot(page, path.join(SHOTS, `host-${width}-signed.png`));
        const stored = await b.h.deps.database.db.selectFrom('recipients').select('status').where('id', '=', f.recipientIds[0]!).executeTakeFirstOrThrow();
        assert.equal(stored.status, 'signed');

        // Only the host's own page and this server were asked for anything.
        const hostOrigin = `http://localhost:${hostPort}`;
        assert.deepEqual(requestsAway(b.origin, requests).filter((u) => !u.startsWith(`${hostOrigin}/`)), [], 'no third-party request');
        assert.deepEqual(problems, [], 'no page or console error');
      } finally {
        await context.close();
      }
    });
  }

  it('the waiting, voided and expired pages tell the host their state; a decline in the frame is told once', async () => {
    const as = b.h.actors.aTest;
    const templateId = await sampleTemplate(b.h, as.partition);
    const send = async (body: Record<string, unknown>) => {
      const form = (await b.h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } })).json<{ id: string }>();
      const sent = await b.h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as, json: body });
      assert.equal(sent.status, 200, sent.body);
      return { formId: form.id, recipients: sent.json<{ recipients: Array<{ id: string; signing_url: string }> }>().recipients.map((r) => ({ id: r.id, url: `${b.origin}${new URL(r.signing_url).pathname}` })) };
    };
    const one = (email: string) => ({ recipients: [{ channel: 'email', email }] });
    const waiting = await send({ signing_order: 'sequential', recipients: [{ channel: 'email', email: 'w1@example.com' }, { channel: 'email', email: 'w2@example.com' }] });
    const voided = await send(one('voided@example.com'));
    assert.equal((await b.h.request({ method: 'POST', url: `/api/v1/forms/${voided.formId}/void`, as, json: { reason: 'Wrong unit' } })).status, 200);
    const expired = await send(one('expired@example.com'));
    assert.equal((await b.h.request({ method: 'POST', url: `/api/v1/forms/${expired.formId}/expire`, as })).status, 200);
    const declining = await send(one('decliner@example.com'));

    const context = await b.browser.newContext({ viewport: { width: 390, height: 800 }, deviceScaleFactor: 1, hasTouch: true });
    const problems: string[] = [];
    try {
      const frameState = async (name: string, f: { formId: string }, r: { id: string; url: string }, expected: string[]) => {
        pages.set(`/${name}`, hostPage(b.origin, r.url));
        const page = await context.newPage();
        page.on('pageerror', (e) => problems.push(`${name} pageerror: ${e.message}`));
        await page.goto(`http://localhost:${hostPort}/${name}`, { waitUntil: 'load' });
        await page.waitForFunction(`window.hostEvents.length >= ${expected.length}`, undefined, { timeout: 15_000 });
        await page.waitForTimeout(300);
        const all = await events(page);
        assert.deepEqual(all.map((e) => e.type), expected, `${name}: ${JSON.stringify(all)}`);
        for (const e of all) assert.deepEqual([e.detail.formId, e.detail.recipientId], [f.formId, r.id], `${name}: ${e.type} names the form and recipient`);
        assert.equal(all[0]!.detail.state, name);
        await screenshot(page, path.join(SHOTS, `host-390-${name}.png`));
        return { page, all };
      };
      await frameState('waiting', waiting, waiting.recipients[1]!, ['formsign:loaded', 'formsign:waiting']);
      await frameState('voided', voided, voided.recipients[0]!, ['formsign:loaded', 'formsign:voided']);
      const exp = await frameState('expired', expired, expired.recipients[0]!, ['formsign:loaded', 'formsign:expired', 'formsign:error']);
      assert.equal(exp.all[2]!.detail.code, 'link_expired');

      // Declining inside the frame: told at once with the reason; the declined page it leads to does not repeat it.
      pages.set('/declining', hostPage(b.origin, declining.recipients[0]!.url));
      const page = await context.newPage();
      page.on('pageerror', (e) => problems.push(`declining pageerror: ${e.message}`));
      await page.goto(`http://localhost:${hostPort}/declining`, { waitUntil: 'load' });
      const frame = page.frameLocator('formsign-signing iframe');
      await frame.locator('#decline-open').click();
      await frame.locator('#decline-reason').fill('The rent is wrong');
      await frame.locator('#decline-confirm').click();
      await page.waitForFunction('window.hostEvents.filter((e) => e.type === "formsign:loaded").length >= 2', undefined, { timeout: 30_000 }).catch(async (e: unknown) => {
        throw new Error(`${String(e)}; heard ${JSON.stringify(await events(page))}; the dialog says: ${await frame.locator("#decline-error").innerText().catch(() => "?")}`);
      });
      await page.waitForTimeout(500);
      const all = await events(page);
      assert.deepEqual(all.map((e) => [e.type, e.detail.state ?? e.detail.reason ?? '']), [['formsign:loaded', 'open'], ['formsign:declined', 'The rent is wrong'], ['formsign:loaded', 'declined']], JSON.stringify(all));
      // The same declined page framed afresh (another visit) tells the host the form is declined.
      await frameState('declined', declining, declining.recipients[0]!, ['formsign:loaded', 'formsign:declined']);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('a host not on the allow-list cannot frame the page (CSP frame-ancestors) and hears nothing', async () => {
    const f = await signingUrl('not-allowed@example.com');
    pages.set('/elsewhere', hostPage(b.origin, f.url));
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const consoleLines: string[] = [];
    page.on('console', (m) => consoleLines.push(m.text()));
    try {
      // The same host page, reached as http://127.0.0.1:<port>: an origin the account did not allow.
      // Chromium logs the refusal when the frame's answer arrives, before any script of the frame could
      // run: once it is logged, nothing can come from the frame any more (instead of a fixed 3 s wait).
      await Promise.all([
        page.waitForEvent('console', { predicate: (m) => /frame-ancestors/.test(m.text()), timeout: 30_000 }),
        page.goto(`http://127.0.0.1:${hostPort}/elsewhere`, { waitUntil: 'load' }),
      ]);
      const child = page.frames().find((fr) => fr !== page.mainFrame());
      assert.ok(child, 'the host made its frame');
      const shown = await child.evaluate("document.querySelector('#signing') !== null").catch(() => false);
      assert.equal(shown, false, 'the signing page is not shown in the frame');
      assert.ok(consoleLines.some((l) => /frame-ancestors/.test(l)), `Chromium names the refusal: ${consoleLines.join(' | ')}`);
      assert.deepEqual(await events(page), [], 'no message reached the host');
      await screenshot(page, path.join(SHOTS, 'not-allowed.png'), { fullPage: true });
    } finally {
      await context.close();
    }
  });
});
