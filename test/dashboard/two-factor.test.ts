import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { SECOND_FACTOR_CHECKS_PER_USER } from '../../src/domain/users/login-throttle.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { FakeClock } from '../outbox/support/sending.js';
import { inviteMember } from '../../src/domain/users/invitations.js';
import { tokenOf } from '../teams/support.js';
import { errorCode, PASSWORD, signedUp, uniqueEmail, visitor, type Visitor } from './support.js';

// Two-factor sign-in (issue 39 item 4), end to end over the dashboard API: enrolment with the secret
// the server shows (codes computed from it with otpauth, as an authenticator app would), the code
// step of sign-in with a half-signed-in session that reaches nothing else, recovery codes, replay,
// the throttle, turning it off, and "2FA required" sending a user without it to enrolment.

const T0 = '2026-12-07T10:00:00.000Z';

interface Enrolment { secret: string; otpauth_url: string; qr_code: string }
interface Challenge { object: string; step: 'code' | 'enrol'; csrf_token: string }

for (const dialect of DIALECTS) {
  describe(`two-factor sign-in (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    before(async () => {
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, { clock });
    });
    after(() => h.close());

    const codeFor = (secret: string, at = clock.now().getTime()) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });
    /** The next 30-second step, so a new code is not a replay of the last one. */
    const nextStep = () => clock.advance(30_000);

    async function enrol(v: Visitor): Promise<{ secret: string; recovery: string[] }> {
      const start = await v.call('POST', '/dashboard/api/two-factor/enrolment', { json: { password: PASSWORD } });
      assert.equal(start.status, 200, start.body);
      const e = start.json<Enrolment>();
      assert.match(e.secret, /^[A-Z2-7]{32}$/, 'a 160-bit base32 secret, shown as text');
      assert.ok(e.otpauth_url.startsWith('otpauth://totp/Formsign:') && e.otpauth_url.includes(`secret=${e.secret}`), e.otpauth_url);
      assert.ok(e.qr_code.startsWith('data:image/svg+xml;base64,'));
      assert.match(Buffer.from(e.qr_code.slice(e.qr_code.indexOf(',') + 1), 'base64').toString(), /^<svg[^>]*>.*<path/s, 'an SVG QR code');
      const wrong = await v.call('POST', '/dashboard/api/two-factor/enrolment/confirm', { json: { code: codeFor(e.secret, clock.now().getTime() - 10 * 60_000) } });
      assert.equal(wrong.status, 400);
      assert.equal(errorCode(wrong), 'auth_code_invalid');
      const before = v.cookie;
      const ok = await v.call('POST', '/dashboard/api/two-factor/enrolment/confirm', { json: { code: codeFor(e.secret) } });
      assert.equal(ok.status, 200, ok.body);
      const body = ok.json<{ object: string; recovery_codes: string[]; session: { csrf_token: string } }>();
      assert.equal(body.object, 'two_factor_enrolled');
      assert.equal(body.recovery_codes.length, 10);
      assert.equal(new Set(body.recovery_codes).size, 10);
      for (const c of body.recovery_codes) assert.match(c, /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
      const cookie = String([ok.headers['set-cookie']].flat()[0]);
      assert.match(cookie, /^formsign_session=/);
      const newCookie = cookie.slice(0, cookie.indexOf(';'));
      assert.notEqual(newCookie, before, 'the session id changes when two-factor sign-in is turned on');
      const old = visitor(h);
      old.cookie = before;
      assert.equal((await old.call('GET', '/dashboard/api/session')).status, 401, 'the session from before is over');
      v.cookie = newCookie;
      v.csrf = body.session.csrf_token;
      return { secret: e.secret, recovery: body.recovery_codes };
    }

    async function passwordStep(email: string, ip?: string): Promise<Visitor> {
      const v = visitor(h, ip);
      const res = await v.call('POST', '/dashboard/api/login', { json: { email, password: PASSWORD } });
      assert.equal(res.status, 200, res.body);
      const c = res.json<Challenge>();
      assert.equal(c.object, 'two_factor_challenge');
      v.csrf = c.csrf_token;
      assert.ok(v.cookie, 'a half-signed-in session cookie');
      return v;
    }

    it('enrols with a QR code and a confirmation code; sign-in then needs a code, and the half session reaches nothing else', async () => {
      const a = await signedUp(h);
      const { secret, recovery } = await enrol(a);
      // Stored hashed: no recovery code appears in the store as typed.
      const rows = await h.deps.database.db.selectFrom('recovery_codes').select(['code_hash']).execute();
      for (const c of recovery) assert.ok(!rows.some((r) => r.code_hash.includes(c.replace(/-/g, ''))));
      const status = await a.call('GET', '/dashboard/api/two-factor');
      assert.deepEqual({ ...status.json<Record<string, unknown>>(), enabled_at: null }, { object: 'two_factor', enabled: true, enabled_at: null, recovery_codes_left: 10, required: false });

      nextStep();
      const half = await passwordStep(a.email);
      for (const [method, url] of [['GET', '/dashboard/api/session'], ['GET', '/dashboard/api/test/templates'], ['GET', '/dashboard/api/two-factor'], ['POST', '/dashboard/api/keys']] as const) {
        const res = await half.call(method, url, method === 'POST' ? { json: {} } : {});
        assert.equal(res.status, 401, `${method} ${url} with a half-signed-in session`);
        assert.equal(errorCode(res), 'two_factor_required');
      }
      const wrong = await half.call('POST', '/dashboard/api/two-factor/verify', { json: { code: codeFor(secret, clock.now().getTime() + 5 * 60_000) } });
      assert.equal(errorCode(wrong), 'auth_code_invalid');
      const halfCookie = half.cookie;
      const ok = await half.call('POST', '/dashboard/api/two-factor/verify', { json: { code: codeFor(secret) } });
      assert.equal(ok.status, 200, ok.body);
      assert.equal(ok.json<{ object: string; user: { email: string } }>().user.email, a.email);
      assert.notEqual(half.cookie, halfCookie, 'the session id is rotated after the second factor');
      assert.equal((await half.call('GET', '/dashboard/api/test/templates')).status, 200);
      const stale = visitor(h);
      stale.cookie = halfCookie;
      assert.equal((await stale.call('GET', '/dashboard/api/session')).status, 401, 'the half session is over');

      // The same code again (same time step) is refused: a code works once.
      const again = await passwordStep(a.email);
      assert.equal(errorCode(await again.call('POST', '/dashboard/api/two-factor/verify', { json: { code: codeFor(secret) } })), 'auth_code_invalid');

      // A recovery code works once, whatever its case and dashes.
      const byRecovery = await again.call('POST', '/dashboard/api/two-factor/verify', { json: { recovery_code: recovery[3]!.toUpperCase().replace(/-/g, ' ') } });
      assert.equal(byRecovery.status, 200, byRecovery.body);
      assert.equal((await a.call('GET', '/dashboard/api/two-factor')).json<{ recovery_codes_left: number }>().recovery_codes_left, 9);
      const third = await passwordStep(a.email);
      const reused = await third.call('POST', '/dashboard/api/two-factor/verify', { json: { recovery_code: recovery[3] } });
      assert.equal(reused.status, 400);
      assert.equal(errorCode(reused), 'auth_code_invalid');

      // The activity log has each step; a half session is no sign-in until its code.
      const log = await h.deps.database.db.selectFrom('account_activity').select(['kind', 'detail']).where('account_id', '=', a.accountId).orderBy('created_at').orderBy('id').execute();
      const steps = log.map((e) => (e.kind === 'member.signed_in' ? `signed_in:${JSON.parse(e.detail ?? '{}').via}` : e.kind));
      // (The test's clock stands still, so the entries share their time: compared as a set of counts.)
      assert.deepEqual(steps.filter((k) => k !== 'signed_in:sign_up').sort(), [
        'signed_in:recovery_code', 'signed_in:two_factor', 'two_factor.enabled', 'two_factor.failed', 'two_factor.failed', 'two_factor.failed', 'two_factor.recovery_code_used',
      ]);
      // Members: two-factor sign-in shows as on.
      const members = await a.call('GET', '/dashboard/api/members');
      assert.equal(members.json<{ data: Array<{ email: string; two_factor: boolean }> }>().data.find((m) => m.email === a.email)?.two_factor, true);
    });

    it(`the code step is throttled like the password: ${SECOND_FACTOR_CHECKS_PER_USER} wrong codes, then even the right one waits`, async () => {
      const a = await signedUp(h);
      const { secret } = await enrol(a);
      nextStep();
      const half = await passwordStep(a.email, '10.77.0.1');
      const wrongCode = codeFor(secret, clock.now().getTime() + 10 * 60_000);
      const burst = await Promise.all(Array.from({ length: SECOND_FACTOR_CHECKS_PER_USER + 3 }, () => half.call('POST', '/dashboard/api/two-factor/verify', { json: { code: wrongCode } })));
      assert.deepEqual(burst.map((r) => r.status).sort(), [...Array(SECOND_FACTOR_CHECKS_PER_USER).fill(400), 429, 429, 429]);
      const right = await half.call('POST', '/dashboard/api/two-factor/verify', { json: { code: codeFor(secret) } });
      assert.equal(right.status, 429);
      assert.equal(errorCode(right), 'rate_limited');
      assert.ok(Number(right.headers['retry-after']) > 0);
      // From another address too: the count is the user's.
      const elsewhere = await passwordStep(a.email, '10.77.0.2');
      assert.equal((await elsewhere.call('POST', '/dashboard/api/two-factor/verify', { json: { code: codeFor(secret) } })).status, 429);
      clock.advance(16 * 60_000);
      assert.equal((await elsewhere.call('POST', '/dashboard/api/two-factor/verify', { json: { code: codeFor(secret) } })).status, 401, 'the half session outlived its 10 minutes');
      const later = await passwordStep(a.email, '10.77.0.2');
      assert.equal((await later.call('POST', '/dashboard/api/two-factor/verify', { json: { code: codeFor(secret) } })).status, 200);
    });

    it('turns off with a current code only; sign-in is one step again', async () => {
      const a = await signedUp(h);
      const { secret } = await enrol(a);
      nextStep();
      const wrong = await a.call('POST', '/dashboard/api/two-factor/disable', { json: { code: codeFor(secret, clock.now().getTime() - 5 * 60_000) } });
      assert.equal(errorCode(wrong), 'auth_code_invalid');
      const off = await a.call('POST', '/dashboard/api/two-factor/disable', { json: { code: codeFor(secret) } });
      assert.equal(off.status, 200, off.body);
      assert.equal(off.json<{ enabled: boolean }>().enabled, false);
      assert.equal(await h.deps.database.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', (await a.call('GET', '/dashboard/api/session')).json<{ user: { id: string } }>().user.id).executeTakeFirst(), undefined);
      const v = visitor(h);
      const res = await v.call('POST', '/dashboard/api/login', { json: { email: a.email, password: PASSWORD } });
      assert.equal(res.json<{ object: string }>().object, 'session');
    });

    it('"2FA required": a password user without it is sent to enrolment, and can do nothing else until done', async () => {
      const owner = await signedUp(h);
      const set = await owner.call('PUT', '/dashboard/api/settings/sign-in', { json: { require_2fa: true } });
      assert.equal(set.status, 200, set.body);
      assert.deepEqual(set.json(), { object: 'sign_in_policy', account_id: owner.accountId, sso_domains: [], sso_required: false, require_2fa: true, sso_configured: false });
      const half = visitor(h);
      const res = await half.call('POST', '/dashboard/api/login', { json: { email: owner.email, password: PASSWORD } });
      const c = res.json<Challenge>();
      assert.deepEqual([c.object, c.step], ['two_factor_challenge', 'enrol']);
      half.csrf = c.csrf_token;
      assert.equal(errorCode(await half.call('GET', '/dashboard/api/test/templates')), 'two_factor_required');
      assert.equal(errorCode(await half.call('POST', '/dashboard/api/two-factor/verify', { json: { code: '123456' } })), 'two_factor_required', 'no code step before enrolment');
      const { secret } = await enrol(half);
      assert.equal((await half.call('GET', '/dashboard/api/test/templates')).status, 200, 'a full session after enrolment');
      nextStep();
      const next = await passwordStep(owner.email);
      assert.equal((await next.call('POST', '/dashboard/api/two-factor/verify', { json: { code: codeFor(secret) } })).status, 200);
    });

    it('from a signed-in session, setting it up asks the current password first (a held session cannot lock the owner out)', async () => {
      const a = await signedUp(h);
      const missing = await a.call('POST', '/dashboard/api/two-factor/enrolment', { json: {} });
      assert.equal(missing.status, 400);
      assert.deepEqual([errorCode(missing), missing.json<{ error: { param: string } }>().error.param], ['parameter_missing', 'password']);
      const wrong = await a.call('POST', '/dashboard/api/two-factor/enrolment', { json: { password: 'not the password at all' } });
      assert.equal(wrong.status, 400);
      assert.deepEqual([errorCode(wrong), wrong.json<{ error: { param: string; message: string } }>().error.message], ['parameter_invalid', 'The password is wrong.']);
      const pending = await h.deps.database.db.selectFrom('user_totp').select(['pending_secret']).where('account_id', '=', a.accountId).executeTakeFirst();
      assert.equal(pending?.pending_secret ?? null, null, 'no secret is made for a wrong password');
      const ok = await a.call('POST', '/dashboard/api/two-factor/enrolment', { json: { password: PASSWORD } });
      assert.equal(ok.status, 200, ok.body);
      assert.match(ok.json<Enrolment>().secret, /^[A-Z2-7]{32}$/);
    });

    it('an e-mailed sign-in link is one factor: two-factor sign-in still asks for the code', async () => {
      const a = await signedUp(h);
      const { secret } = await enrol(a);
      const { createLoginLink } = await import('../../src/domain/users/manage-users.js');
      const link = await createLoginLink(h.deps.domain, a.email);
      const v = visitor(h);
      const res = await v.call('POST', '/dashboard/api/login-link', { json: { token: link.url.slice(link.url.indexOf('#') + 1) } });
      assert.equal(res.json<Challenge>().object, 'two_factor_challenge');
      v.csrf = res.json<Challenge>().csrf_token;
      nextStep();
      assert.equal((await v.call('POST', '/dashboard/api/two-factor/verify', { json: { code: codeFor(secret) } })).status, 200);
    });

    it('"2FA required": accepting an invitation sends the new member to enrolment, not into the dashboard', async () => {
      const owner = await signedUp(h);
      assert.equal((await owner.call('PUT', '/dashboard/api/settings/sign-in', { json: { require_2fa: true } })).status, 200);
      const email = uniqueEmail('joiner');
      const { url } = await inviteMember(h.deps.domain, owner.accountId, { userId: null, email: owner.email, ip: null, role: 'sender' }, { email, role: 'sender' });
      const joiner = visitor(h);
      const res = await joiner.call('POST', '/dashboard/api/invitation/accept', { json: { token: tokenOf(url), password: PASSWORD } });
      assert.equal(res.status, 201, res.body);
      const c = res.json<Challenge>();
      assert.deepEqual([c.object, c.step], ['two_factor_challenge', 'enrol']);
      joiner.csrf = c.csrf_token;
      assert.equal(errorCode(await joiner.call('GET', '/dashboard/api/test/templates')), 'two_factor_required', 'a half session until enrolled');
      await enrol(joiner);
      const session = await joiner.call('GET', '/dashboard/api/session');
      assert.deepEqual([session.json<{ user: { email: string; role: string } }>().user.email, session.json<{ user: { role: string } }>().user.role], [email, 'sender']);
    });

    it('"2FA required": a member cannot turn two-factor sign-in off; once the requirement is lifted, they can', async () => {
      const owner = await signedUp(h);
      const { secret } = await enrol(owner);
      assert.equal((await owner.call('PUT', '/dashboard/api/settings/sign-in', { json: { require_2fa: true } })).status, 200);
      nextStep();
      const refused = await owner.call('POST', '/dashboard/api/two-factor/disable', { json: { code: codeFor(secret) } });
      assert.equal(refused.status, 403, refused.body);
      assert.equal(errorCode(refused), 'permission_denied');
      assert.match(refused.json<{ error: { message: string } }>().error.message, /requires two-factor sign-in/);
      assert.equal((await owner.call('GET', '/dashboard/api/two-factor')).json<{ enabled: boolean }>().enabled, true, 'still on');
      assert.equal((await owner.call('PUT', '/dashboard/api/settings/sign-in', { json: { require_2fa: false } })).status, 200);
      const off = await owner.call('POST', '/dashboard/api/two-factor/disable', { json: { code: codeFor(secret) } });
      assert.equal(off.status, 200, off.body);
      assert.equal(off.json<{ enabled: boolean }>().enabled, false);
    });
  });
}
