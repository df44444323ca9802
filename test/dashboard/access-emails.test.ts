import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sha256Hex } from '../../src/lib/crypto.js';
import { ACCESS_EMAILS_PER_ADDRESS, ACCESS_EMAILS_PER_IP } from '../../src/domain/users/login-throttle.js';
import { EMAILED_LINK_MINUTES } from '../../src/domain/users/access-emails.js';
import { createLoginLink, createUser } from '../../src/domain/users/manage-users.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { FakeClock, startSmtpSink, type ReceivedMail } from '../outbox/support/sending.js';
import { errorCode, PASSWORD, signedUp, uniqueEmail, visitor, type Visitor } from './support.js';

// "E-mail me a sign-in link" and "Forgot password?" (issue 37 item 4), end to end: the request on the
// sign-in page, the outbox job, a real SMTP conversation with a sink, the link from the received mail.

const T0 = '2026-12-07T09:00:00.000Z';
const BASE = 'https://dash.acme.test';

for (const dialect of DIALECTS) {
  describe(`dashboard access e-mails (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    before(async () => {
      sink = await startSmtpSink();
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, { clock, env: { SMTP_URL: sink.url, MAIL_FROM: 'Formsign <no-reply@acme.test>', BASE_URL: BASE } });
    });
    after(async () => {
      await h.close();
      await sink.close();
    });

    const drain = async () => {
      for (let i = 0; i < 10; i++) if ((await h.deps.worker.runDue()) === 0) return;
      assert.fail('jobs still due after 10 rounds');
    };
    const mailsTo = (address: string): ReceivedMail[] => sink.received.filter((m) => m.envelopeTo.includes(address));
    const ask = (v: Visitor, email: string, purpose?: 'sign_in' | 'reset') => v.call('POST', '/dashboard/api/access-email', { json: { email, ...(purpose ? { purpose } : {}) } });
    /** The link of the one mail to the address, checked against both parts of the message. */
    const linkIn = (mail: ReceivedMail, path: '/dashboard/link#' | '/dashboard/reset#'): string => {
      const re = new RegExp(`${BASE.replace(/[.]/g, '\\.')}${path}([A-Za-z0-9_-]{43})`);
      const token = re.exec(mail.parsed.text ?? '')?.[1] ?? assert.fail(`no ${path} link in: ${mail.parsed.text}`);
      assert.ok(String(mail.parsed.html).includes(`${path}${token}`), 'the HTML part carries the same link');
      return token;
    };

    it('the same answer for a user and for an unknown address; only the user gets a mail, with a link that signs in once', async () => {
      const user = await signedUp(h);
      const unknown = uniqueEmail('nobody');
      const stranger = visitor(h);
      const a = await ask(stranger, user.email);
      const b = await ask(stranger, unknown);
      assert.deepEqual([a.status, b.status], [202, 202]);
      const bodyA = a.json<{ message: string }>();
      const bodyB = b.json<{ message: string }>();
      assert.deepEqual({ ...bodyA, email: 'x', message: bodyA.message.replace(user.email, 'x') }, { ...bodyB, email: 'x', message: bodyB.message.replace(unknown, 'x') });
      assert.equal(bodyA.message, `If a Formsign user has the address ${user.email}, we have e-mailed a sign-in link to it. The link works once, for ${EMAILED_LINK_MINUTES} minutes.`);
      assert.equal(a.headers['set-cookie'], undefined, 'asking signs no one in');

      await drain();
      const mails = mailsTo(user.email);
      assert.equal(mails.length, 1);
      assert.equal(mailsTo(unknown).length, 0, 'nothing goes to an address no user has');
      assert.equal(mails[0]!.parsed.subject, 'Your Formsign sign-in link');
      assert.match(mails[0]!.parsed.text ?? '', new RegExp(`works once, for ${EMAILED_LINK_MINUTES} minutes`));
      const token = linkIn(mails[0]!, '/dashboard/link#');

      // Only the token's SHA-256 is stored.
      const stored = await h.deps.domain.db.selectFrom('login_links').select(['token_hash', 'purpose', 'expires_at']).execute();
      assert.ok(stored.some((r) => r.token_hash === sha256Hex(token) && r.purpose === 'sign_in' && r.expires_at === new Date(Date.parse(T0) + EMAILED_LINK_MINUTES * 60_000).toISOString()));
      assert.ok(!JSON.stringify(stored).includes(token));
      // The message went out through the outbox and is on record, without a form.
      const message = await h.deps.domain.db.selectFrom('messages').selectAll().where('to_address', '=', user.email).executeTakeFirstOrThrow();
      assert.deepEqual([message.kind, message.form_id, message.status, message.transport], ['sign_in_link', null, 'delivered', 'smtp']);

      // A reset link's token does not sign in, and a sign-in token does not reset.
      const browser = visitor(h);
      assert.equal(errorCode(await browser.call('POST', '/dashboard/api/password-reset', { json: { token, new_password: 'a whole new password' } })), 'login_failed');
      const signedIn = await browser.call('POST', '/dashboard/api/login-link', { json: { token } });
      assert.equal(signedIn.status, 200, signedIn.body);
      assert.equal(signedIn.json<{ user: { email: string } }>().user.email, user.email);
      assert.equal((await browser.call('GET', '/dashboard/api/session')).status, 200);
      const again = await visitor(h).call('POST', '/dashboard/api/login-link', { json: { token } });
      assert.equal(again.status, 401);
      assert.equal(errorCode(again), 'login_failed');
    });

    it('a link is short-lived: past its minutes it signs no one in', async () => {
      const user = await signedUp(h);
      assert.equal((await ask(visitor(h), user.email, 'sign_in')).status, 202);
      await drain();
      const token = linkIn(mailsTo(user.email).at(-1)!, '/dashboard/link#');
      clock.advance(EMAILED_LINK_MINUTES * 60_000 + 1000);
      const late = await visitor(h).call('POST', '/dashboard/api/login-link', { json: { token } });
      assert.equal(late.status, 401);
      assert.match(late.json<{ error: { message: string } }>().error.message, /used already, has expired/);
    });

    it('a reset sets a new password (the rules of sign-up), ends every other session and starts a fresh one', async () => {
      const user = await signedUp(h);
      const other = visitor(h);
      assert.equal((await other.call('POST', '/dashboard/api/login', { json: { email: user.email, password: PASSWORD } })).status, 200);
      assert.equal((await ask(visitor(h), user.email, 'reset')).status, 202);
      await drain();
      const mail = mailsTo(user.email).at(-1)!;
      assert.equal(mail.parsed.subject, 'Set a new password for your Formsign dashboard');
      const token = linkIn(mail, '/dashboard/reset#');

      // An attacker-chosen cookie is never adopted: the reset answers with a token of its own.
      const browser = visitor(h);
      browser.cookie = 'formsign_session=chosen-by-someone-else-0123456789abcdefghijklmnop';
      const short = await browser.call('POST', '/dashboard/api/password-reset', { json: { token, new_password: 'short' } });
      assert.equal(short.status, 400);
      assert.equal(errorCode(short), 'parameter_invalid');
      assert.equal(short.json<{ error: { param: string } }>().error.param, 'new_password');
      const done = await browser.call('POST', '/dashboard/api/password-reset', { json: { token, new_password: 'a brand new password' } });
      assert.equal(done.status, 200, done.body);
      assert.ok(browser.cookie && !browser.cookie.includes('chosen-by-someone-else'), 'a new session token');
      assert.equal((await browser.call('GET', '/dashboard/api/session')).status, 200);
      // Every session the user had before ends.
      assert.equal((await user.call('GET', '/dashboard/api/session')).status, 401);
      assert.equal((await other.call('GET', '/dashboard/api/session')).status, 401);
      // The new password signs in, the old one no longer; the link is spent.
      assert.equal((await visitor(h).call('POST', '/dashboard/api/login', { json: { email: user.email, password: 'a brand new password' } })).status, 200);
      assert.equal((await visitor(h).call('POST', '/dashboard/api/login', { json: { email: user.email, password: PASSWORD } })).status, 401);
      assert.equal(errorCode(await visitor(h).call('POST', '/dashboard/api/password-reset', { json: { token, new_password: 'yet another password' } })), 'login_failed');
    });

    it('signing in again in the same browser ends the session it held (no session outlives a new sign-in there)', async () => {
      const user = await signedUp(h);
      const before = user.cookie!;
      assert.equal((await user.call('POST', '/dashboard/api/login', { json: { email: user.email, password: PASSWORD } })).status, 200);
      assert.notEqual(user.cookie, before);
      const stale = visitor(h);
      stale.cookie = before;
      assert.equal((await stale.call('GET', '/dashboard/api/session')).status, 401);
    });

    it(`throttled: ${ACCESS_EMAILS_PER_ADDRESS} per address asked about (known or not) and ${ACCESS_EMAILS_PER_IP} per client address`, async () => {
      const user = await signedUp(h);
      const unknown = uniqueEmail('ghost');
      for (const address of [user.email, unknown]) {
        const answers = [];
        for (let i = 0; i <= ACCESS_EMAILS_PER_ADDRESS; i++) answers.push(await ask(visitor(h), address, i % 2 ? 'reset' : 'sign_in'));
        assert.deepEqual(answers.map((r) => r.status), [...Array<number>(ACCESS_EMAILS_PER_ADDRESS).fill(202), 429]);
        const refused = answers.at(-1)!;
        assert.equal(errorCode(refused), 'rate_limited');
        assert.ok(Number(refused.headers['retry-after']) > 0);
      }
      await drain();
      assert.equal(mailsTo(user.email).length, ACCESS_EMAILS_PER_ADDRESS, 'the refused request sent nothing');

      const one = visitor(h, '10.99.0.1');
      const statuses = [];
      for (let i = 0; i <= ACCESS_EMAILS_PER_IP; i++) statuses.push((await ask(one, uniqueEmail('spray'))).status);
      assert.deepEqual(statuses, [...Array<number>(ACCESS_EMAILS_PER_IP).fill(202), 429]);
      // Past the window it answers again.
      clock.advance(16 * 60_000);
      assert.equal((await ask(one, uniqueEmail('later'))).status, 202);
    });

    it('refuses a malformed address, an unknown purpose and unknown fields in the contract’s error shape', async () => {
      const v = visitor(h);
      const bad = await ask(v, 'not an address');
      assert.deepEqual([bad.status, errorCode(bad)], [400, 'parameter_invalid']);
      const purpose = await v.call('POST', '/dashboard/api/access-email', { json: { email: 'a@example.com', purpose: 'admin' } });
      assert.deepEqual([purpose.status, errorCode(purpose)], [400, 'parameter_invalid']);
      const extra = await v.call('POST', '/dashboard/api/access-email', { json: { email: 'a@example.com', user_id: 'x' } });
      assert.deepEqual([extra.status, errorCode(extra)], [400, 'parameter_unknown']);
      const foreign = await v.call('POST', '/dashboard/api/access-email', { json: { email: 'a@example.com' }, headers: { origin: 'https://evil.example' } });
      assert.equal(errorCode(foreign), 'csrf_token_invalid');
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`dashboard access e-mails in the dev outbox (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect);
    });
    after(() => h.close());

    it('the dev outbox shows a reset e-mail to the user it is for, and to no other user of the account', async () => {
      const owner = await signedUp(h);
      const colleague = await createUser(h.deps.domain, { accountId: owner.accountId, email: uniqueEmail('colleague') });
      const other = visitor(h);
      const link = await createLoginLink(h.deps.domain, colleague.email);
      assert.equal((await other.call('POST', '/dashboard/api/login-link', { json: { token: link.url.split('#')[1] } })).status, 200);

      assert.equal((await visitor(h).call('POST', '/dashboard/api/access-email', { json: { email: owner.email, purpose: 'reset' } })).status, 202);
      for (let i = 0; i < 10 && (await h.deps.worker.runDue()) > 0; i++);
      type Box = { data: Array<{ id: string; kind: string; to: string; form_id: string | null }> };
      const mine = (await owner.call('GET', '/dashboard/api/test/outbox')).json<Box>().data.filter((m) => m.kind === 'password_reset');
      assert.equal(mine.length, 1);
      assert.deepEqual([mine[0]!.to, mine[0]!.form_id], [owner.email, null]);
      const html = await owner.call('GET', `/dashboard/api/test/outbox/${mine[0]!.id}/html`);
      assert.equal(html.status, 200);
      assert.match(html.body, /\/dashboard\/reset#[A-Za-z0-9_-]{43}/);

      const theirs = (await other.call('GET', '/dashboard/api/test/outbox')).json<Box>().data;
      assert.equal(theirs.filter((m) => m.kind === 'password_reset').length, 0, "a colleague does not see the owner's reset link");
      const peek = await other.call('GET', `/dashboard/api/test/outbox/${mine[0]!.id}/html`);
      assert.deepEqual([peek.status, errorCode(peek)], [404, 'resource_not_found']);
    });
  });
}
