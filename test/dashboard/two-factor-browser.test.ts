import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { addSsoDomain } from '../../src/domain/sso/sso-domains.js';
import { startTestProvider, type TestProvider } from '../shared/oidc-provider.js';
import { checkPage, followNav, openWatched, signUpInPage, startBrowserStage, type BrowserStage, type Watched } from './browser-support.js';
import { PASSWORD, uniqueEmail } from './support.js';

// Two-factor sign-in in Chromium at 1280 and 390 px (test-results/two-factor/): set up from Settings
// with the QR code and the key shown as text (the code computed from that key, as an app would), the
// recovery codes, then a sign-in with the code step; axe-clean at every step.

const SHOTS = path.resolve('test-results', 'two-factor');

/** The refusal a step provokes on purpose (its answer and the console's line about it) is no problem. */
const forgive = (w: Watched, expected: RegExp) => w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !expected.test(p)));

const codeFor = (secret: string, at: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });

describe('two-factor sign-in in the browser', () => {
  let stage: BrowserStage;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    stage = await startBrowserStage();
  });
  after(() => stage?.close());

  const check = (w: Watched, name: string) => checkPage(w, SHOTS, name);

  /** A new browser signs in with the password; the code step follows. */
  async function passwordStep(email: string, width: number): Promise<Watched> {
    const w = await openWatched(stage.browser, stage.origin, width);
    await w.page.goto(`${stage.origin}/dashboard/login`);
    await w.page.getByLabel('E-mail address').fill(email);
    await w.page.getByLabel('Password').fill(PASSWORD);
    await w.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await w.page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    return w;
  }

  for (const width of [1280, 390]) {
    it(`sets it up in Settings and signs in with a code (${width} px)`, async () => {
      const email = uniqueEmail('totp');
      const w = await openWatched(stage.browser, stage.origin, width);
      const { page } = w;
      await page.goto(`${stage.origin}/dashboard/signup`);
      await signUpInPage(page, email);
      await followNav(page, 'Settings');
      await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      // The current password first: a wrong one is refused beside its box, the right one goes on.
      await page.getByLabel('Your current password').fill('not my password');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('The password is wrong.').waitFor();
      forgive(w, /two-factor\/enrolment|status of 400/);
      await check(w, 'enrol-password');
      await page.getByLabel('Your current password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Continue' }).click();
      const qr = page.getByRole('img', { name: 'QR code to add Formsign to your authenticator app' });
      await qr.waitFor();
      assert.ok(((await qr.getAttribute('src')) ?? '').startsWith('data:image/svg+xml;base64,'));
      const secret = (await page.locator('code.secret').innerText()).replace(/\s+/g, '');
      assert.match(secret, /^[A-Z2-7]{32}$/);
      await qr.scrollIntoViewIfNeeded();
      await check(w, 'enrol');
      await page.getByLabel('Code from the app').fill('000000');
      await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      await page.getByText('That code is not right').waitFor();
      forgive(w, /two-factor\/enrolment\/confirm|status of 400/);
      await page.getByLabel('Code from the app').fill(codeFor(secret, Date.now()));
      await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
      const codes = await page.locator('.recovery-codes code').allInnerTexts();
      assert.equal(codes.length, 10);
      await check(w, 'recovery-codes');
      await page.getByRole('button', { name: 'I saved my recovery codes' }).click();
      await page.getByText(/On since .*10 of 10 recovery codes left/).waitFor();
      await check(w, 'enabled');
      await w.context.close();

      // A new browser: password, then the code step (a code of the next time step: the one used to
      // confirm was spent).
      const s = await passwordStep(email, width);
      await check(s, 'code-step');
      await s.page.getByLabel('Code').fill(codeFor(secret, Date.now() + 30_000));
      await s.page.getByRole('button', { name: 'Verify and sign in' }).click();
      await s.page.getByRole('heading', { name: 'No templates yet' }).waitFor();
      await check(s, 'signed-in');
      // The recovery route on the code step, seen too.
      await s.context.close();
      const r = await passwordStep(email, width);
      await r.page.getByRole('button', { name: 'Use a recovery code' }).click();
      await r.page.getByLabel('Recovery code').fill(codes[0]!);
      await check(r, 'recovery-step');
      await r.page.getByRole('button', { name: 'Verify and sign in' }).click();
      await r.page.getByRole('heading', { name: 'No templates yet' }).waitFor();
      await r.context.close();
    });
  }

  it('the sign-in page offers no single sign-on when the server has no provider', async () => {
    const w = await openWatched(stage.browser, stage.origin, 390);
    await w.page.goto(`${stage.origin}/dashboard/login`);
    await w.page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
    assert.equal(await w.page.getByRole('button', { name: 'Sign in with SSO' }).count(), 0);
    await w.context.close();
  });
});

describe('single sign-on in the browser, through a real OpenID provider', () => {
  let stage: BrowserStage;
  let idp: TestProvider;
  let callback = '';

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    idp = await startTestProvider(() => callback);
    stage = await startBrowserStage(idp.env);
    callback = `${stage.origin}/dashboard/sso/callback`;
    const account = await stage.h.deps.database.db.selectFrom('accounts').select('id').where('name', '=', 'Account A').executeTakeFirstOrThrow();
    await addSsoDomain(stage.h.deps.domain, account.id, 'acme-sso.test');
  });
  after(async () => {
    await stage?.close();
    await idp?.close();
  });

  for (const width of [1280, 390]) {
    it(`signs in with SSO from the sign-in page, the user made at the first sign-in (${width} px)`, async () => {
      const email = `grace-${width}@acme-sso.test`;
      idp.people.set(`grace-${width}`, { email, email_verified: true, name: 'Grace Hopper' });
      idp.signInAs = `grace-${width}`;
      const w = await openWatched(stage.browser, stage.origin, width);
      await w.page.goto(`${stage.origin}/dashboard/login`);
      await w.page.getByRole('button', { name: 'Sign in with SSO' }).waitFor();
      await checkPage(w, SHOTS, 'sso-sign-in');
      // E-mail first: the address alone, in a claimed domain, goes to the provider and back.
      await w.page.getByLabel('E-mail address').fill(email);
      await w.page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await w.page.getByRole('heading', { name: 'No templates yet' }).waitFor();
      forgive(w, new RegExp(`request away: ${idp.issuer.replace(/[.]/g, '\\.')}/`));
      await checkPage(w, SHOTS, 'sso-signed-in');
      const session = await w.page.evaluate(() => fetch('/dashboard/api/session').then((r) => r.json() as Promise<{ user: { email: string; role: string } }>));
      assert.deepEqual([session.user.email, session.user.role], [email, 'sender']);
      await w.context.close();
    });
  }

  it('an address in no claimed domain gets a page that says so (390 px)', async () => {
    idp.people.set('bob', { email: 'bob@elsewhere.test', email_verified: true, name: 'Bob' });
    idp.signInAs = 'bob';
    const w = await openWatched(stage.browser, stage.origin, 390);
    await w.page.goto(`${stage.origin}/dashboard/login`);
    await w.page.getByRole('button', { name: 'Sign in with SSO' }).click();
    await w.page.getByRole('heading', { name: 'Single sign-on did not sign you in' }).waitFor();
    await w.page.getByText('Single sign-on is not set up for elsewhere.test').waitFor();
    forgive(w, new RegExp(`request away: ${idp.issuer.replace(/[.]/g, '\\.')}/|403 GET .*/dashboard/sso/callback|status of 403`));
    await checkPage(w, SHOTS, 'sso-refused');
    await w.context.close();
  });
});
