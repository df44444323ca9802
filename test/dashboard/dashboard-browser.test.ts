import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { Harness } from '../harness.js';
import { FIXTURES_DIR } from '../shared/fixtures.js';
import { waitForInk } from '../signing/page-checks.js';
import { getTemplate } from '../../src/domain/templates/read-templates.js';
import { NO_FIELDS_UPLOADED } from '../../src/domain/templates/template-warnings.js';
import { createLoginLink, createUser } from '../../src/domain/users/manage-users.js';
import { checkPage, openWatched, signUpInPage, startBrowserStage, type BrowserStage, type Watched, followNav } from './browser-support.js';
import { PASSWORD, uniqueEmail } from './support.js';
import { screenshot } from '../pages/chromium.js';

// The dashboard in Debian's Chromium, end to end as a person uses it: sign up, upload a fillable PDF,
// see its detected fields, drag a signature field onto the page, save, check the public API sees the
// field, make a test key in the dashboard and list the template with it. Any page error, console
// error, failed request or 4xx/5xx response fails the test; axe-core finds no serious or critical
// violation on each page; screenshots of each page at 1280 and 375 px go to test-results/dashboard/.

const SHOTS = path.resolve('test-results', 'dashboard');
const PDF = path.join(FIXTURES_DIR, 'openoffice_form_example.pdf');
const CONTRACT = fileURLToPath(new URL('../../examples/contract.pdf', import.meta.url));

describe('dashboard in Chromium', () => {
  let stage: BrowserStage;
  let h: Harness;
  let browser: Browser;
  let origin: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    stage = await startBrowserStage();
    ({ h, browser, origin } = stage);
  });
  after(() => stage?.close());

  const open = (width: number) => openWatched(browser, origin, width);
  const check = (w: Watched, name: string) => checkPage(w, SHOTS, name);

  /** The first page's canvas carries ink: pdf.js drew it. */
  const waitForPdfInk = (page: Page) => waitForInk(page, '.pdf-canvas');

  /** Uploads a PDF from the templates page and waits for the builder to draw it; its template id. */
  async function uploadIntoBuilder(page: Page, file: string): Promise<string> {
    await page.locator('input[type=file]').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload and detect fields' }).click();
    await page.locator('.builder').waitFor({ timeout: 30_000 });
    const templateId = /\/dashboard\/templates\/(tmpl_\w+)$/.exec(page.url())?.[1];
    assert.ok(templateId, page.url());
    await waitForPdfInk(page);
    return templateId;
  }

  it('first load of /dashboard with a cold cache: transferred bytes and time to interactive, within the JavaScript budget', async (t) => {
    const w = await open(1280);
    try {
      const cdp = await w.context.newCDPSession(w.page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      const types = new Map<string, string>();
      const bytes: Array<{ type: string; size: number }> = [];
      cdp.on('Network.responseReceived', (e: { requestId: string; type: string }) => void types.set(e.requestId, e.type));
      cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => void bytes.push({ type: types.get(e.requestId) ?? 'Other', size: e.encodedDataLength }));
      const started = Date.now();
      await w.page.goto(`${origin}/dashboard`);
      // Interactive: the sign-in form is drawn and its first field takes typing.
      await w.page.getByLabel('E-mail address').fill('a@example.com');
      const tti = Date.now() - started;
      await w.page.waitForLoadState('networkidle');
      const total = bytes.reduce((n, b) => n + b.size, 0);
      const js = bytes.filter((b) => b.type === 'Script').reduce((n, b) => n + b.size, 0);
      t.diagnostic(`first load of /dashboard: ${bytes.length} requests, ${(total / 1024).toFixed(1)} KB transferred (${(js / 1024).toFixed(1)} KB JavaScript), interactive after ${tti} ms`);
      assert.ok(js > 10_000 && js < 300 * 1024, `compressed JavaScript of the first route: ${js} B`);
      assert.deepEqual(w.problems, []);
    } finally {
      await w.context.close();
    }
  });

  it('a one-time sign-in link opens the dashboard once; the user then sets a password', async () => {
    const user = await createUser(h.deps.domain, { accountId: h.actors.bTest.partition.accountId, email: uniqueEmail('linked') });
    const link = await createLoginLink(h.deps.domain, user.email);
    const url = `${origin}${new URL(link.url).pathname}${new URL(link.url).hash}`;
    const w = await open(375);
    try {
      await w.page.goto(url);
      await w.page.getByRole('heading', { name: 'Templates', exact: true }).waitFor();
      assert.equal(new URL(w.page.url()).hash, '', 'the token leaves the address bar');
      await followNav(w.page, 'Settings');
      await w.page.getByRole('heading', { name: 'Set a password' }).waitFor();
      await check(w, 'settings-link-user');
      await w.page.getByLabel('New password').fill('a long new password');
      await w.page.getByRole('button', { name: 'Save password' }).click();
      await w.page.getByText('Your password is saved.').waitFor();
      assert.deepEqual(w.problems, []);
      // The link is spent: a second visit says so in words.
      const again = await open(1280);
      try {
        await again.page.goto(url);
        const alert = again.page.getByRole('alert');
        await alert.waitFor();
        assert.match(await alert.innerText(), /used already|expired/);
        await screenshot(again.page, path.join(SHOTS, 'link-spent-1280.png'));
      } finally {
        await again.context.close();
      }
    } finally {
      await w.context.close();
    }
  });

  it('a flat PDF uploaded in the dashboard warns of no form fields until fields drawn in the builder are saved', async () => {
    // An account of its own (c's), so its template list holds only this upload.
    const user = await createUser(h.deps.domain, { accountId: h.actors.cLive.partition.accountId, email: uniqueEmail('flat') });
    const link = await createLoginLink(h.deps.domain, user.email);
    const w = await open(1280);
    const { page } = w;
    try {
      await page.goto(`${origin}${new URL(link.url).pathname}${new URL(link.url).hash}`);
      await page.getByRole('heading', { name: 'Templates', exact: true }).waitFor();
      const templateId = await uploadIntoBuilder(page, CONTRACT);
      assert.equal(await page.locator('.field-list .panel-title').textContent(), 'Fields (0)');
      // What the API says of the template, through the dashboard's own session.
      const warnings = async (): Promise<string[]> => {
        const res = await page.request.get(`${origin}/dashboard/api/test/templates/${templateId}`);
        assert.equal(res.status(), 200);
        return ((await res.json()) as { warnings: string[] }).warnings;
      };
      assert.deepEqual(await warnings(), [NO_FIELDS_UPLOADED]);

      // Draw a text box on the page (the builder's default type) and save.
      const pageBox = (await page.locator('.pdf-page[data-page="1"]').boundingBox())!;
      const at = { x: pageBox.x + pageBox.width * 0.2, y: pageBox.y + pageBox.height * 0.2 };
      await page.mouse.move(at.x, at.y);
      await page.mouse.down();
      await page.mouse.move(at.x + 150, at.y + 20, { steps: 8 });
      await page.mouse.up();
      await page.locator('.box').first().waitFor();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('All changes saved').waitFor();
      assert.deepEqual(await warnings(), [], 'the saved version has a field: no warning left');
      const saved = await getTemplate(h.deps.domain, { accountId: h.actors.cLive.partition.accountId, mode: 'test' }, templateId);
      assert.deepEqual(JSON.parse(saved.json).warnings, []);
      assert.deepEqual(w.problems, []);
    } finally {
      await w.context.close();
    }
  });

  it('sign up → upload → detected fields → drag a signature field → save → the API shows it → a test key made here lists the template', async () => {
    const w = await open(1280);
    const { page } = w;
    const email = uniqueEmail('browser');
    try {
      // `/` leads to the dashboard; signed out, the dashboard opens on the sign-in form.
      await page.goto(`${origin}/`);
      await page.locator('a[href="/dashboard"]').first().click();
      await page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/dashboard/login');
      await check(w, 'login');
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
      await check(w, 'signup');
      await signUpInPage(page, email);

      // The empty list says what to do.
      assert.equal(new URL(page.url()).pathname, '/dashboard/templates');
      await check(w, 'templates-empty');

      // A broken upload is refused in words.
      await page.locator('input[type=file]').setInputFiles({ name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7\nnot really a PDF\n%%EOF') });
      await page.getByRole('button', { name: 'Upload and detect fields' }).click();
      const refusal = page.getByRole('alert').filter({ hasText: 'was not imported' });
      await refusal.waitFor();
      assert.match(await refusal.innerText(), /The PDF was not imported\.\s+\S.{20,}/);
      await screenshot(page, path.join(SHOTS, 'upload-error-1280.png'));
      w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !/^400 POST .*\/dashboard\/api\/test\/templates$/.test(p) && !/status of 400/.test(p)));

      // Upload the real form: the builder opens with the detected fields drawn over the page.
      const templateId = await uploadIntoBuilder(page, PDF);
      const boxes = page.locator('.box');
      await boxes.first().waitFor();
      const detectedCount = await boxes.count();
      assert.ok(detectedCount > 5, `detected fields drawn (${detectedCount})`);
      assert.equal(await page.locator('.field-list .panel-title').textContent(), `Fields (${detectedCount})`);
      await check(w, 'builder');

      // Drag a signature field from the palette onto an empty part of page 1.
      const item = page.locator('.palette-item[data-type="signature"]');
      const from = (await item.boundingBox())!;
      const pageBox = (await page.locator('.pdf-page[data-page="1"]').boundingBox())!;
      const target = { x: pageBox.x + pageBox.width * 0.3, y: pageBox.y + pageBox.height * 0.93 };
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + 40, from.y + 20, { steps: 4 });
      await page.mouse.move(target.x, target.y, { steps: 12 });
      await page.mouse.up();
      const sig = page.locator('.box[data-field="signature_1"]');
      await sig.waitFor();
      assert.equal(await boxes.count(), detectedCount + 1);
      const sigBox = (await sig.boundingBox())!;
      assert.ok(Math.abs(sigBox.x + sigBox.width / 2 - target.x) < 3 && Math.abs(sigBox.y + sigBox.height / 2 - target.y) < 3, 'dropped where the pointer was');

      // Edit it in the properties panel, nudge it with the keyboard, and undo the nudge.
      await page.getByLabel(/^Label/).fill('Client signature');
      await sig.focus();
      const before = await page.locator('.geometry').innerText();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      assert.notEqual(await page.locator('.geometry').innerText(), before);
      await page.getByRole('button', { name: 'Undo' }).click();
      assert.equal(await page.locator('.geometry').innerText(), before);
      // Resize by the corner handle, then undo it.
      await sig.click();
      const handle = (await sig.locator('.handle').boundingBox())!;
      await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
      await page.mouse.down();
      await page.mouse.move(handle.x + 30, handle.y + 12, { steps: 6 });
      await page.mouse.up();
      const resized = (await sig.boundingBox())!;
      assert.ok(resized.width > sigBox.width + 15 && resized.height > sigBox.height + 5, `resized: ${sigBox.width}×${sigBox.height} → ${resized.width}×${resized.height}`);
      await page.keyboard.press('Control+z');
      assert.equal(Math.round((await sig.boundingBox())!.width), Math.round(sigBox.width));
      // Draw a box on empty page: a field of the chosen type (signature, from the drag); Delete
      // removes it, undo brings it back, Delete again.
      const d0 = { x: pageBox.x + pageBox.width * 0.62, y: pageBox.y + pageBox.height * 0.55 };
      await page.mouse.move(d0.x, d0.y);
      await page.mouse.down();
      await page.mouse.move(d0.x + 80, d0.y + 30, { steps: 8 });
      await page.mouse.up();
      const drawn = page.locator('.box[data-field="signature_2"]');
      await drawn.waitFor();
      const drawnBox = (await drawn.boundingBox())!;
      assert.ok(Math.abs(drawnBox.width - 80) < 3 && Math.abs(drawnBox.height - 30) < 3, `drawn as dragged: ${drawnBox.width}×${drawnBox.height}`);
      await drawn.focus();
      await page.keyboard.press('Delete');
      await drawn.waitFor({ state: 'detached' });
      await page.keyboard.press('Control+z');
      await drawn.waitFor();
      await drawn.focus();
      await page.keyboard.press('Delete');
      await drawn.waitFor({ state: 'detached' });
      assert.equal(await boxes.count(), detectedCount + 1);
      await screenshot(page, path.join(SHOTS, 'builder-signature-1280.png'), { fullPage: true });

      // A field picked in the list takes the keyboard to its box on the next frame (arrows move it)…
      const inList = page.locator('.field-list button[data-field-name="country"]');
      await inList.click();
      await page.waitForFunction(() => {
        const { document } = globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } };
        return document.activeElement?.getAttribute('data-field') === 'country';
      }, undefined, { timeout: 30_000 });
      // …unless the person has gone on to its properties before that frame: the focus stays where they
      // are typing. (Before this, a fast Delete in the options box could land on the box and remove the
      // field.) Deselect, then pick it and focus its options box within one task, and wait two frames.
      // (Browser code as a string: the tests compile without the DOM's types; page.evaluate is not
      // subject to the page's CSP, waitForFunction with a string is.)
      await page.keyboard.press('Escape');
      const kept = await page.evaluate(`(async () => {
        const button = document.querySelector('.field-list button[data-field-name="country"]');
        button?.click();
        await Promise.resolve();
        const options = document.querySelector('#insp-options');
        if (!options) return 'the properties had not rendered after the click';
        options.focus();
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return document.activeElement === options ? 'options' : 'focus moved to ' + document.activeElement?.className;
      })()`);
      assert.equal(kept, 'options');

      // A save the server refuses names the field and says why, in its properties.
      await page.getByLabel(/^Options/).fill('');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const why = page.locator('.inspector').getByRole('alert');
      // On a timeout, say what the page showed instead (a refusal of another kind shows only in the
      // builder's note; a save that went through says so in the toolbar).
      await why.waitFor().catch(async (error: Error) => {
        const shown = await page.locator('.builder-note, .builder-toolbar, [role="status"]').allInnerTexts().catch(() => []);
        throw new Error(`${error.message}\nthe page showed: ${JSON.stringify(shown)}; problems: ${JSON.stringify(w.problems)}`);
      });
      assert.match(await why.innerText(), /select field needs options/);
      w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !/^400 PATCH .*\/dashboard\/api\/test\/templates\/tmpl_\w+$/.test(p) && !/status of 400/.test(p)));
      await page.getByRole('button', { name: 'Undo' }).click();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('All changes saved').waitFor();

      // A test key made in the developers area: shown once, with its warning.
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('heading', { name: 'No API keys yet' }).waitFor();
      await check(w, 'keys-empty');
      await page.getByLabel('Label').fill('Browser test');
      await page.getByRole('button', { name: 'Create key' }).click();
      const value = page.locator('#new-key-value');
      await value.waitFor();
      const key = await value.innerText();
      assert.match(key, /^fk_test_[0-9a-f]{32}$/);
      assert.match(await page.locator('.new-key').innerText(), /shown only this once/);
      await page.getByRole('button', { name: 'Copy', exact: true }).click();
      await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
      assert.equal(await page.evaluate('navigator.clipboard.readText()'), key);
      await page.locator('table').getByText(`fk_test_…${key.slice(-4)}`).waitFor();
      await check(w, 'keys');

      // The public API, with the key made here, shows the saved signature field and lists the template.
      const one = await fetch(`${origin}/api/v1/templates/${templateId}`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(one.status, 200);
      const t = (await one.json()) as { fields: Array<{ name: string; type: string; label?: string; page: number; required: boolean }> };
      assert.equal(t.fields.length, detectedCount + 1);
      const saved = t.fields.find((f) => f.name === 'signature_1');
      assert.deepEqual(saved && { type: saved.type, label: saved.label, page: saved.page, required: saved.required }, { type: 'signature', label: 'Client signature', page: 1, required: true });
      const list = await fetch(`${origin}/api/v1/templates`, { headers: { authorization: `Bearer ${key}` } });
      assert.deepEqual(((await list.json()) as { data: Array<{ id: string }> }).data.map((x) => x.id), [templateId]);

      // The list shows the template; the settings page; signing out ends the session.
      await page.getByRole('link', { name: 'Templates' }).click();
      await page.getByRole('link', { name: 'openoffice_form_example' }).waitFor();
      await check(w, 'templates');
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Change your password' }).waitFor();
      await check(w, 'settings');
      // Trial: Live says how to upgrade. Paid: Live opens the live partition (empty here), with a banner.
      await page.getByRole('button', { name: 'Live' }).click();
      await page.locator('#upgrade-hint').getByText('needs a paid plan').waitFor();
      const accountId = (await h.deps.database.db.selectFrom('users').select('account_id').where('email', '=', email).executeTakeFirstOrThrow()).account_id;
      await h.deps.database.db.updateTable('accounts').set({ plan: 'paid' }).where('id', '=', accountId).execute();
      await page.reload();
      await page.getByRole('link', { name: 'Templates' }).click();
      await page.getByRole('button', { name: 'Live' }).click();
      await page.getByText('Live mode: changes here affect real documents.').waitFor();
      await page.getByRole('heading', { name: 'No templates yet' }).waitFor();
      await check(w, 'templates-live');
      await page.getByRole('button', { name: 'Test' }).click();
      await page.getByRole('link', { name: 'openoffice_form_example' }).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
      assert.deepEqual(w.problems, []);

      // The same pages at 375 px, signed in with the password.
      const m = await open(375);
      try {
        // Signed out, an address inside the dashboard asks for sign-in, then lands where it pointed.
        await m.page.goto(`${origin}/dashboard/keys`);
        await m.page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
        await check(m, 'login');
        await m.page.getByLabel('E-mail address').fill(email);
        await m.page.getByLabel('Password').fill(PASSWORD);
        await m.page.getByRole('button', { name: 'Sign in' }).click();
        await m.page.getByRole('heading', { name: 'API keys' }).waitFor();
        assert.equal(new URL(m.page.url()).pathname, '/dashboard/keys');
        await followNav(m.page, 'Templates');
        await m.page.getByRole('link', { name: 'openoffice_form_example' }).waitFor();
        await check(m, 'templates');
        await m.page.getByRole('link', { name: 'openoffice_form_example' }).click();
        await m.page.locator('.box[data-field="signature_1"]').waitFor({ timeout: 30_000 });
        await waitForPdfInk(m.page);
        await check(m, 'builder');
        const pageWidth = (await m.page.locator('.pdf-page').first().boundingBox())!.width;
        assert.ok(pageWidth <= 375, `the page fits the phone (${pageWidth} px)`);
        // Moved with a finger: touch events through the DevTools protocol.
        await m.page.locator('.box[data-field="signature_1"]').scrollIntoViewIfNeeded();
        const box = (await m.page.locator('.box[data-field="signature_1"]').boundingBox())!;
        const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        const cdp = await m.context.newCDPSession(m.page);
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [start] });
        for (let i = 1; i <= 10; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: start.x + i * 3, y: start.y - i * 4 }] });
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
        await cdp.detach();
        const moved = (await m.page.locator('.box[data-field="signature_1"]').boundingBox())!;
        assert.ok(Math.abs(moved.x - box.x - 30) < 2 && Math.abs(moved.y - box.y + 40) < 2, `moved by touch: ${box.x},${box.y} → ${moved.x},${moved.y}`);
        await m.page.getByText('Unsaved changes').waitFor();
        // Leaving with unsaved changes asks first; declining stays, accepting leaves.
        m.page.once('dialog', (d) => void d.dismiss());
        await followNav(m.page, 'API keys');
        await m.page.getByText('Unsaved changes').waitFor();
        assert.match(new URL(m.page.url()).pathname, /^\/dashboard\/templates\/tmpl_/);
        const asked = new Promise<string>((resolve) => m.page.once('dialog', (d) => { resolve(d.message()); void d.accept(); }));
        await followNav(m.page, 'API keys');
        assert.match(await asked, /unsaved changes/);
        await m.page.locator('table').waitFor();
        await check(m, 'keys');
      } finally {
        await m.context.close();
      }
    } finally {
      await w.context.close();
    }
  });
});
