import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addSsoDomain } from '../../src/domain/sso/sso-domains.js';
import { issueLoginLink } from '../../src/domain/users/access-emails.js';
import { inviteMember } from '../../src/domain/users/invitations.js';
import { findUserByEmail } from '../../src/db/repositories/users.js';
import { tokenOf } from '../teams/support.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { startTestProvider, type TestProvider } from '../shared/oidc-provider.js';
import { errorCode, PASSWORD, signedUp, uniqueEmail, visitor, type Visitor } from './support.js';

// Single sign-on with OpenID Connect (issue 39 item 3) against a real provider on loopback
// (oidc-provider, test/shared/oidc-provider.ts): the authorization code flow with PKCE through its
// real endpoints, the callback's checks (the attempt spent once, state, nonce, the code), creation at
// the first sign-in, unclaimed domains, and `sso_required` refusing passwords.

const BASE = 'http://localhost:3000';
const REDIRECT = `${BASE}/dashboard/sso/callback`;

interface Callback {
  status: number;
  location: string | undefined;
  body: string;
  session: string | undefined;
}

for (const dialect of DIALECTS) {
  describe(`single sign-on with OpenID Connect (${dialect})`, () => {
    let h: Harness;
    let idp: TestProvider;
    let accountId: string;
    before(async () => {
      idp = await startTestProvider(REDIRECT);
      h = await createHarness(dialect, { env: { BASE_URL: BASE, ...idp.env } });
      accountId = (await h.deps.database.db.selectFrom('accounts').select('id').where('name', '=', 'Account A').executeTakeFirstOrThrow()).id;
      await addSsoDomain(h.deps.domain, accountId, 'acme-sso.test');
    });
    after(async () => {
      await h.close();
      await idp.close();
    });

    let people = 0;
    /** A person the provider knows; their subject. */
    const person = (email: string, verified = true): string => {
      const sub = `sub-${++people}`;
      idp.people.set(sub, { email, email_verified: verified, name: `Person ${people}` });
      return sub;
    };

    /** Starts an attempt as the sign-in page does: the provider's address and the attempt's cookie. */
    async function start(v: Visitor, email?: string): Promise<{ url: URL; flowCookie: string }> {
      const res = await v.call('POST', '/dashboard/api/sso/start', { json: email ? { email } : {} });
      assert.equal(res.status, 200, res.body);
      const body = res.json<{ object: string; url: string }>();
      assert.equal(body.object, 'sso_redirect');
      const cookie = String([res.headers['set-cookie']].flat().find((c) => String(c).startsWith('formsign_sso=')));
      assert.match(cookie, /^formsign_sso=[\w-]{43}; Path=\/dashboard\/sso; Max-Age=600; HttpOnly; SameSite=Lax$/);
      const url = new URL(body.url);
      assert.equal(url.origin, idp.issuer);
      assert.deepEqual([url.searchParams.get('code_challenge_method'), url.searchParams.get('scope'), url.searchParams.get('redirect_uri')], ['S256', 'openid email profile', REDIRECT]);
      assert.ok(url.searchParams.get('state') && url.searchParams.get('nonce') && url.searchParams.get('code_challenge'));
      return { url, flowCookie: cookie.slice(0, cookie.indexOf(';')) };
    }

    async function callback(v: Visitor, flowCookie: string | undefined, callbackUrl: string): Promise<Callback> {
      const u = new URL(callbackUrl);
      const cookie = [v.cookie, flowCookie].filter(Boolean).join('; ');
      const res = await h.app.inject({ method: 'GET', url: `${u.pathname}${u.search}`, headers: cookie ? { cookie } : {} });
      const set = [res.headers['set-cookie'] ?? []].flat().map(String);
      const session = set.find((c) => c.startsWith('formsign_session='));
      assert.ok(set.some((c) => c.startsWith('formsign_sso=; Path=/dashboard/sso; Max-Age=0')), 'the attempt\'s cookie is dropped');
      return { status: res.statusCode, location: res.headers.location as string | undefined, body: res.body, session: session?.slice(0, session.indexOf(';')) };
    }

    /** The whole round: start, the provider, the callback. */
    async function signIn(sub: string, v = visitor(h), email?: string): Promise<Callback & { v: Visitor }> {
      const { url, flowCookie } = await start(v, email);
      idp.signInAs = sub;
      const back = await idp.authorize(url.href);
      return { ...(await callback(v, flowCookie, back)), v };
    }

    const refused = (r: Callback, status: number, text: RegExp) => {
      assert.equal(r.status, status, r.body.slice(0, 500));
      assert.match(r.body, /<h1>Single sign-on did not sign you in<\/h1>/);
      assert.match(r.body, text);
      assert.equal(r.session, undefined, 'no session');
    };

    it('creates the user at the first sign-in (no password), and signs the same user in again', async () => {
      const email = uniqueEmail('ada').replace('@example.com', '@Acme-SSO.test');
      const sub = person(email);
      const first = await signIn(sub);
      assert.equal(first.status, 303, first.body);
      assert.equal(first.location, '/dashboard/templates');
      assert.ok(first.session);
      first.v.cookie = first.session;
      const session = (await first.v.call('GET', '/dashboard/api/session')).json<{ user: { id: string; email: string; has_password: boolean; role: string }; account: { id: string } }>();
      assert.deepEqual([session.user.email, session.user.has_password, session.user.role, session.account.id], [email.toLowerCase(), false, 'sender', accountId], 'made a sender, without a password');
      // The activity log: joined and signed in, both through single sign-on.
      const log = await h.deps.database.db.selectFrom('account_activity').select(['kind', 'actor_id', 'target', 'detail']).where('account_id', '=', accountId).where('target', '=', email.toLowerCase()).orderBy('created_at').execute();
      assert.deepEqual(log.map((e) => [e.kind, e.actor_id, JSON.parse(e.detail ?? '{}').via]), [['member.joined', session.user.id, 'sso'], ['member.signed_in', session.user.id, 'sso']]);
      const rows = await h.deps.database.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).execute();
      assert.equal(rows.length, 1);
      assert.deepEqual([rows[0]!.account_id, rows[0]!.password_hash], [accountId, null]);
      // Signed in: the account's data is there.
      assert.equal((await first.v.call('GET', '/dashboard/api/test/templates')).status, 200);

      const again = await signIn(sub, first.v);
      assert.equal(again.status, 303);
      assert.notEqual(again.session, first.session, 'a new session id');
      first.v.cookie = again.session;
      assert.equal((await first.v.call('GET', '/dashboard/api/session')).json<{ user: { id: string } }>().user.id, session.user.id, 'the same user');
      const old = visitor(h);
      old.cookie = first.session;
      assert.equal((await old.call('GET', '/dashboard/api/session')).status, 401, 'the browser\'s previous session ended');
      assert.equal((await h.deps.database.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).execute()).length, 1);
    });

    it('refuses an answer whose state is not the attempt\'s, and the attempt is then spent', async () => {
      const sub = person(uniqueEmail('st').replace('@example.com', '@acme-sso.test'));
      const v = visitor(h);
      const { url, flowCookie } = await start(v);
      idp.signInAs = sub;
      const back = new URL(await idp.authorize(url.href));
      const forged = new URL(back);
      forged.searchParams.set('state', 'an-attacker-s-state');
      refused(await callback(v, flowCookie, forged.href), 401, /state differs/);
      refused(await callback(v, flowCookie, back.href), 401, /used already/);
    });

    it('refuses an ID token made for another nonce', async () => {
      const sub = person(uniqueEmail('nc').replace('@example.com', '@acme-sso.test'));
      const v = visitor(h);
      const { url, flowCookie } = await start(v);
      // The code the provider gives is bound to the nonce it was asked with: here not the attempt's.
      url.searchParams.set('nonce', 'a-nonce-of-another-attempt');
      idp.signInAs = sub;
      refused(await callback(v, flowCookie, await idp.authorize(url.href)), 401, /nonce differs/);
    });

    it('refuses an expired code and a code used already; an answer is accepted once, in the browser that started it', async () => {
      const sub = person(uniqueEmail('cd').replace('@example.com', '@acme-sso.test'));
      // Expired: the provider's code lives one second here.
      idp.codeTtl = 1;
      try {
        const v = visitor(h);
        const { url, flowCookie } = await start(v);
        idp.signInAs = sub;
        const back = await idp.authorize(url.href);
        await new Promise((r) => setTimeout(r, 2100));
        refused(await callback(v, flowCookie, back), 401, /expired or was used already/);
      } finally {
        idp.codeTtl = 60;
      }
      // Used: a good sign-in, then its code again under a fresh attempt of the same browser.
      const ok = await signIn(sub);
      assert.equal(ok.status, 303);
      const v = visitor(h);
      const first = await start(v);
      idp.signInAs = sub;
      const back = new URL(await idp.authorize(first.url.href));
      assert.equal((await callback(v, first.flowCookie, back.href)).status, 303);
      const second = await start(v);
      const replay = new URL(back);
      replay.searchParams.set('state', second.url.searchParams.get('state')!);
      refused(await callback(v, second.flowCookie, replay.href), 401, /expired or was used already/);
      // Without the attempt's cookie (another browser), nothing is accepted.
      refused(await callback(visitor(h), undefined, back.href), 401, /in the browser that started it/);
    });

    it('refuses an address whose domain no account claimed, with a message that says so', async () => {
      const email = uniqueEmail('bob').replace('@example.com', '@unclaimed.test');
      refused(await signIn(person(email)), 403, /Single sign-on is not set up for unclaimed\.test/);
      assert.equal(await h.deps.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(), undefined, 'no user made');
      // Asked for by address on the sign-in page: refused before the provider.
      const res = await visitor(h).call('POST', '/dashboard/api/sso/start', { json: { email } });
      assert.equal(res.status, 403);
      assert.equal(errorCode(res), 'sso_not_available');
      assert.match(res.json<{ error: { message: string } }>().error.message, /unclaimed\.test/);
      // And an address the provider has not verified.
      refused(await signIn(person(uniqueEmail('nv').replace('@example.com', '@acme-sso.test'), false)), 401, /has not verified/);
    });

    it('sso_required turns passwords off for the account\'s users; single sign-on still signs them in', async () => {
      const owner = await signedUp(h);
      const domain = `req-${process.pid}-${Date.now()}.test`;
      // Not before a domain is claimed: nobody could sign in.
      const early = await owner.call('PUT', '/dashboard/api/settings/sign-in', { json: { sso_required: true } });
      assert.equal(early.status, 400);
      assert.match(early.json<{ error: { message: string } }>().error.message, /claimed no e-mail domain/);
      await addSsoDomain(h.deps.domain, owner.accountId, domain);
      const set = await owner.call('PUT', '/dashboard/api/settings/sign-in', { json: { sso_required: true } });
      assert.equal(set.status, 200, set.body);
      assert.deepEqual(set.json(), { object: 'sign_in_policy', account_id: owner.accountId, sso_domains: [domain], sso_required: true, require_2fa: false, sso_configured: true });

      const password = await visitor(h).call('POST', '/dashboard/api/login', { json: { email: owner.email, password: PASSWORD } });
      assert.equal(password.status, 403);
      assert.equal(errorCode(password), 'sso_required');
      assert.match(password.json<{ error: { message: string } }>().error.message, /single sign-on/);
      const unknown = await visitor(h).call('POST', '/dashboard/api/login', { json: { email: `nobody@${domain}`, password: PASSWORD } });
      assert.equal(errorCode(unknown), 'sso_required', 'the same answer for an address without a user');

      const member = `carol@${domain}`;
      const ok = await signIn(person(member), visitor(h), member);
      assert.equal(ok.status, 303, ok.body);
      ok.v.cookie = ok.session;
      assert.equal((await ok.v.call('GET', '/dashboard/api/session')).json<{ account: { id: string } }>().account.id, owner.accountId);
    });

    it('sso_required also refuses e-mailed links, resets, invitations and setting a password; a refused link stays unspent', async () => {
      const owner = await signedUp(h);
      const domain = `every-${process.pid}-${Date.now()}.test`;
      await addSsoDomain(h.deps.domain, owner.accountId, domain);
      // Links issued while passwords were still allowed.
      const user = (await findUserByEmail(h.deps.domain.db, owner.email))!;
      const links = await h.deps.domain.transact(async (trx) => ({
        signIn: await issueLoginLink(trx, h.deps.domain, user, 'sign_in', 30),
        reset: await issueLoginLink(trx, h.deps.domain, user, 'reset', 30),
      }));
      const invited = uniqueEmail('inv');
      const { url: invitation } = await inviteMember(h.deps.domain, owner.accountId, { userId: null, email: owner.email, ip: null, role: 'owner' }, { email: invited, role: 'sender' });
      assert.equal((await owner.call('PUT', '/dashboard/api/settings/sign-in', { json: { sso_required: true } })).status, 200);
      const refusedSso = (res: { status: number; body: string }, what: string) => {
        assert.equal(res.status, 403, `${what}: ${res.body}`);
        assert.equal(errorCode(res as Parameters<typeof errorCode>[0]), 'sso_required', what);
        assert.match(JSON.parse(res.body).error.message, /single sign-on/, what);
      };

      // "E-mail me a link" / "Forgot password?": the same answer as for anyone, and nothing is sent.
      const before = await h.deps.domain.db.selectFrom('messages').select('id').where('to_address', '=', owner.email).execute();
      for (const purpose of ['sign_in', 'reset'] as const) {
        const asked = await visitor(h).call('POST', '/dashboard/api/access-email', { json: { email: owner.email, purpose } });
        assert.equal(asked.status, 202, asked.body);
        assert.match(asked.json<{ message: string }>().message, /^If a Formsign user has the address/);
      }
      assert.equal((await h.deps.domain.db.selectFrom('messages').select('id').where('to_address', '=', owner.email).execute()).length, before.length, 'no e-mail queued');
      assert.equal((await h.deps.domain.db.selectFrom('login_links').select('token_hash').where('user_id', '=', user.id).execute()).length, 2, 'no new link');

      const signInToken = links.signIn.url.slice(links.signIn.url.indexOf('#') + 1);
      refusedSso(await visitor(h).call('POST', '/dashboard/api/login-link', { json: { token: signInToken } }), 'sign-in link');
      const resetToken = links.reset.url.slice(links.reset.url.indexOf('#') + 1);
      refusedSso(await visitor(h).call('POST', '/dashboard/api/password-reset', { json: { token: resetToken, new_password: 'a brand new password' } }), 'reset link');
      assert.equal((await findUserByEmail(h.deps.domain.db, owner.email))!.password_hash, user.password_hash, 'the password is unchanged');
      refusedSso(await owner.call('POST', '/dashboard/api/password', { json: { current_password: PASSWORD, new_password: 'a brand new password' } }), 'setting a password');

      const join = await visitor(h).call('POST', '/dashboard/api/invitation/accept', { json: { token: tokenOf(invitation), password: PASSWORD } });
      refusedSso(join, 'invitation');
      assert.equal(JSON.parse(join.body).error.param, 'password');
      assert.equal(await findUserByEmail(h.deps.domain.db, invited), undefined, 'no member made');
      assert.deepEqual(await h.deps.domain.db.selectFrom('login_links').select('used_at').where('user_id', '=', user.id).execute(), [{ used_at: null }, { used_at: null }], 'the refused links are not spent');

      // With passwords allowed again, the same links work: nothing was spent by the refusals.
      assert.equal((await owner.call('PUT', '/dashboard/api/settings/sign-in', { json: { sso_required: false } })).status, 200);
      assert.equal((await visitor(h).call('POST', '/dashboard/api/login-link', { json: { token: signInToken } })).status, 200);
      assert.equal((await visitor(h).call('POST', '/dashboard/api/invitation/accept', { json: { token: tokenOf(invitation), password: PASSWORD } })).status, 201);
    });

    it('refuses sign-up and invitations by another account for an address in a claimed domain; the claiming account still invites it', async () => {
      const email = uniqueEmail('eve').replace('@example.com', '@Acme-SSO.test');
      const signUp = await visitor(h).call('POST', '/dashboard/api/signup', { json: { account_name: 'Eve Ltd', email, password: PASSWORD } });
      assert.equal(signUp.status, 400, signUp.body);
      assert.deepEqual([errorCode(signUp), JSON.parse(signUp.body).error.param], ['parameter_invalid', 'email']);
      assert.match(JSON.parse(signUp.body).error.message, /acme-sso\.test sign in with single sign-on/);
      assert.equal(await h.deps.database.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst(), undefined, 'no user made');

      const other = await signedUp(h);
      const invite = await other.call('POST', '/dashboard/api/members/invitations', { json: { email, role: 'sender' } });
      assert.equal(invite.status, 400, invite.body);
      assert.deepEqual([errorCode(invite), JSON.parse(invite.body).error.param], ['parameter_invalid', 'email']);
      assert.match(JSON.parse(invite.body).error.message, /acme-sso\.test belong to another Formsign account/);
      assert.equal(await h.deps.database.db.selectFrom('invitations').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst(), undefined, 'no invitation made');
      // Addresses elsewhere still work, and the claiming account may invite its own domain.
      assert.equal((await other.call('POST', '/dashboard/api/members/invitations', { json: { email: uniqueEmail('ok'), role: 'sender' } })).status, 201);
      const own = await inviteMember(h.deps.domain, accountId, { userId: null, email: 'operator@example.com', ip: null, role: 'owner' }, { email, role: 'sender' });
      assert.equal(own.invitation.email, email.toLowerCase());
    });
  });
}
