import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bootstrapDemo } from '../../src/domain/accounts/bootstrap-demo.js';
import { LIMIT_PER_EMAIL_AND_IP, SIGNUPS_PER_IP } from '../../src/domain/users/login-throttle.js';
import { createLoginLink, createUser } from '../../src/domain/users/manage-users.js';
import { DIALECTS, TEST_PASSWORD_COST, createHarness, type Harness } from '../harness.js';
import { fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';
import { errorCode, PASSWORD, signedUp, uniqueEmail, visitor } from './support.js';

// The dashboard API (/dashboard/api): sign-up, sign-in, sessions, CSRF, throttling, and templates and
// keys held to the signed-in account, on both dialects.

interface Session { object: string; user: { email: string; has_password: boolean }; account: { id: string; plan: string }; csrf_token: string }
interface Template { id: string; name: string; fields: Array<{ name: string; type: string }> }
interface Key { id: string; mode: string; label: string | null; display: string; key?: string; revoked_at: string | null; last_used_at: string | null }

const OPENOFFICE = 'openoffice_form_example.pdf';

for (const dialect of DIALECTS) {
  describe(`dashboard API (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect);
    });
    after(() => h.close());

    const upload = (v: ReturnType<typeof visitor>, file: Buffer, name = OPENOFFICE, opts: { csrf?: string | false } = {}) => {
      const m = multipart([{ name: 'file', value: file, filename: name }]);
      return v.call('POST', '/dashboard/api/test/templates', { payload: m.payload, headers: m.headers, ...opts });
    };

    it('sign-up makes a trial account, its first user and a session; the cookie is HttpOnly, SameSite=Lax, path /dashboard', async () => {
      const v = visitor(h);
      const email = uniqueEmail('Ada');
      const res = await v.call('POST', '/dashboard/api/signup', { json: { account_name: '  Analytical Engines ', email: `  ${email.toUpperCase()} `, password: PASSWORD } });
      assert.equal(res.status, 201, res.body);
      const s = res.json<Session>();
      assert.equal(s.object, 'session');
      assert.equal(s.user.email, email.toLowerCase());
      assert.equal(s.account.plan, 'trial');
      const cookie = String(res.headers['set-cookie']);
      assert.match(cookie, /^formsign_session=[A-Za-z0-9_-]{43}; Path=\/dashboard; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
      assert.doesNotMatch(cookie, /Secure/, 'not Secure on an http BASE_URL');
      // The account exists on the trial plan, and the stored password is a scrypt hash, not the password.
      const account = await h.deps.database.db.selectFrom('accounts').selectAll().where('id', '=', s.account.id).executeTakeFirstOrThrow();
      assert.equal(account.name, 'Analytical Engines');
      assert.equal(account.plan, 'trial');
      const user = await h.deps.database.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow();
      // At the tests' cost (production's is SCRYPT_PARAMS, test/dashboard/passwords.test.ts).
      assert.match(user.password_hash ?? '', new RegExp(`^scrypt\\$${TEST_PASSWORD_COST.N}\\$8\\$1\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`));
      assert.ok(!(user.password_hash ?? '').includes(PASSWORD));
      // Only the token's hash is stored.
      const token = /formsign_session=([^;]+)/.exec(cookie)![1]!;
      const stored = await h.deps.database.db.selectFrom('sessions').select('token_hash').where('user_id', '=', user.id).execute();
      assert.equal(stored.length, 1);
      assert.notEqual(stored[0]!.token_hash, token);
      const me = await v.call('GET', '/dashboard/api/session');
      assert.equal(me.status, 200);
      assert.equal(me.json<Session>().account.id, s.account.id);
      assert.equal(me.headers['cache-control'], 'no-store');
    });

    it('sign-up refuses a taken address, a short password and a bad address, in words', async () => {
      const a = await signedUp(h);
      const v = visitor(h);
      let res = await v.call('POST', '/dashboard/api/signup', { json: { account_name: 'X', email: a.email.toUpperCase(), password: PASSWORD } });
      assert.equal(res.status, 409);
      assert.equal(errorCode(res), 'email_taken');
      res = await v.call('POST', '/dashboard/api/signup', { json: { account_name: 'X', email: uniqueEmail(), password: 'short' } });
      assert.equal(res.status, 400);
      assert.equal(errorCode(res), 'parameter_invalid');
      assert.match(res.json<{ error: { message: string; param: string } }>().error.message, /at least 10 characters/);
      res = await v.call('POST', '/dashboard/api/signup', { json: { account_name: 'X', email: 'not-an-address', password: PASSWORD } });
      assert.equal(errorCode(res), 'parameter_invalid');
      res = await v.call('POST', '/dashboard/api/signup', { json: { account_name: 'X', email: uniqueEmail(), password: PASSWORD, plan: 'paid' } });
      assert.equal(errorCode(res), 'parameter_unknown');
      assert.equal(v.cookie, undefined, 'no session after a refused sign-up');
    });

    it('sign-up and sign-in refuse a form post (not JSON) and another site\'s origin', async () => {
      const v = visitor(h);
      let res = await v.call('POST', '/dashboard/api/login', { payload: Buffer.from('email=a%40b.co&password=x'), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(res.status, 415);
      res = await v.call('POST', '/dashboard/api/signup', { json: { account_name: 'X', email: uniqueEmail(), password: PASSWORD }, headers: { origin: 'https://evil.example' } });
      assert.equal(res.status, 403);
      assert.equal(errorCode(res), 'csrf_token_invalid');
    });

    it('every dashboard API call without a session answers 401 in JSON', async () => {
      const v = visitor(h);
      const calls: Array<[string, string]> = [
        ['GET', '/dashboard/api/session'], ['POST', '/dashboard/api/logout'], ['POST', '/dashboard/api/password'],
        ['GET', '/dashboard/api/test/templates'], ['POST', '/dashboard/api/test/templates'], ['GET', '/dashboard/api/test/templates/tmpl_x'],
        ['GET', '/dashboard/api/test/templates/tmpl_x/pdf'], ['PATCH', '/dashboard/api/test/templates/tmpl_x'], ['DELETE', '/dashboard/api/test/templates/tmpl_x'],
        ['GET', '/dashboard/api/keys'], ['POST', '/dashboard/api/keys'], ['POST', '/dashboard/api/keys/key_x/revoke'],
      ];
      for (const [method, url] of calls) {
        const res = await v.call(method, url, { headers: { cookie: 'formsign_session=made-up-token' } });
        assert.equal(res.status, 401, `${method} ${url}`);
        assert.equal(errorCode(res), 'session_required', `${method} ${url}`);
      }
      const unknown = await v.call('GET', '/dashboard/api/nothing-here');
      assert.equal(unknown.status, 404);
      assert.equal(errorCode(unknown), 'route_not_found');
    });

    it('a state change without the CSRF token (or with another session\'s) answers 403 and changes nothing', async () => {
      const a = await signedUp(h);
      const b = await signedUp(h);
      const before = await a.call('GET', '/dashboard/api/keys');
      const calls: Array<[string, string, unknown]> = [
        ['POST', '/dashboard/api/keys', { mode: 'test', label: 'x' }],
        ['POST', '/dashboard/api/logout', {}],
        ['POST', '/dashboard/api/password', { current_password: PASSWORD, new_password: 'another long password' }],
        ['PATCH', '/dashboard/api/test/templates/tmpl_x', { name: 'x' }],
        ['DELETE', '/dashboard/api/test/templates/tmpl_x', undefined],
      ];
      for (const [method, url, json] of calls) {
        for (const csrf of [false, b.csrf!, 'x'] as const) {
          const res = await a.call(method, url, { json, csrf });
          assert.equal(res.status, 403, `${method} ${url} csrf=${String(csrf).slice(0, 6)}`);
          assert.equal(errorCode(res), 'csrf_token_invalid');
        }
      }
      const up = await upload(a, fixture(OPENOFFICE), OPENOFFICE, { csrf: false });
      assert.equal(up.status, 403);
      assert.deepEqual((await a.call('GET', '/dashboard/api/keys')).json(), before.json(), 'no key was made');
      assert.equal((await a.call('GET', '/dashboard/api/session')).status, 200, 'still signed in');
      assert.deepEqual((await a.call('GET', '/dashboard/api/test/templates')).json<{ data: unknown[] }>().data, []);
    });

    it('log out ends the session on the server: the old cookie no longer works', async () => {
      const a = await signedUp(h);
      const oldCookie = a.cookie!;
      const res = await a.call('POST', '/dashboard/api/logout');
      assert.equal(res.status, 204);
      assert.match(String(res.headers['set-cookie']), /^formsign_session=; Path=\/dashboard; Max-Age=0; HttpOnly; SameSite=Lax/);
      const replay = await a.call('GET', '/dashboard/api/session', { headers: { cookie: oldCookie } });
      assert.equal(replay.status, 401);
      // Signing in again works and gives a new token.
      const login = await a.call('POST', '/dashboard/api/login', { json: { email: a.email, password: PASSWORD } });
      assert.equal(login.status, 200, login.body);
      assert.notEqual(a.cookie, oldCookie);
      // The ended session is dropped as the new one is made: the table keeps live sessions only.
      const rows = await h.deps.database.db.selectFrom('sessions').select(['revoked_at']).where('account_id', '=', a.accountId).execute();
      assert.deepEqual(rows, [{ revoked_at: null }]);
    });

    it('uploads a PDF, lists it, serves its PDF and refuses a broken one in words; all in the session\'s partition', async () => {
      const a = await signedUp(h);
      const empty = await a.call('GET', '/dashboard/api/test/templates');
      assert.deepEqual(empty.json<{ data: unknown[] }>().data, []);
      const res = await upload(a, fixture(OPENOFFICE));
      assert.equal(res.status, 201, res.body.slice(0, 300));
      const t = res.json<Template>();
      assert.equal(t.name, 'openoffice_form_example');
      assert.ok(t.fields.length > 5, 'detected fields');
      const list = await a.call('GET', '/dashboard/api/test/templates');
      assert.deepEqual(list.json<{ data: Template[] }>().data.map((x) => x.id), [t.id]);
      const pdf = await a.call('GET', `/dashboard/api/test/templates/${t.id}/pdf`);
      assert.equal(pdf.status, 200);
      assert.equal(pdf.headers['content-type'], 'application/pdf');
      assert.ok(pdf.body.startsWith('%PDF-'));
      const broken = await upload(a, Buffer.from('%PDF-1.7\nthis is not really a PDF at all\n%%EOF'), 'broken.pdf');
      assert.equal(broken.status, 400);
      assert.equal(errorCode(broken), 'pdf_invalid');
      // The same template is in the account's test partition for its API keys too.
      const key = await a.call('POST', '/dashboard/api/keys', { json: { mode: 'test', label: 'ci' } });
      assert.equal(key.status, 201, key.body);
      const api = await h.request({ url: '/api/v1/templates', headers: { authorization: `Bearer ${key.json<Key>().key}` } });
      assert.deepEqual(api.json<{ data: Template[] }>().data.map((x) => x.id), [t.id]);
      // Live mode needs a paid plan.
      const live = await a.call('GET', '/dashboard/api/live/templates');
      assert.equal(live.status, 402);
      assert.equal(errorCode(live), 'plan_required');
      const odd = await a.call('GET', '/dashboard/api/staging/templates');
      assert.equal(odd.status, 404);
    });

    it('one account\'s session never sees another account\'s templates or keys', async () => {
      const a = await signedUp(h);
      const b = await signedUp(h);
      const t = (await upload(a, fixture(OPENOFFICE))).json<Template>();
      const k = (await a.call('POST', '/dashboard/api/keys', { json: { mode: 'test', label: 'a-key' } })).json<Key>();
      assert.deepEqual((await b.call('GET', '/dashboard/api/test/templates')).json<{ data: unknown[] }>().data, []);
      for (const url of [`/dashboard/api/test/templates/${t.id}`, `/dashboard/api/test/templates/${t.id}/pdf`]) {
        const res = await b.call('GET', url);
        assert.equal(res.status, 404, url);
        assert.equal(errorCode(res), 'resource_not_found');
      }
      const keys = (await b.call('GET', '/dashboard/api/keys')).json<{ data: Key[] }>().data;
      assert.ok(!keys.some((x) => x.id === k.id), 'B does not list A\'s key');
      const revoke = await b.call('POST', `/dashboard/api/keys/${k.id}/revoke`);
      assert.equal(revoke.status, 404);
      const stillActive = (await a.call('GET', '/dashboard/api/keys')).json<{ data: Key[] }>().data.find((x) => x.id === k.id);
      assert.equal(stillActive?.revoked_at, null);
      // Another account's template through B's own key is not found either (the API's partition check).
      const bKey = (await b.call('POST', '/dashboard/api/keys', { json: { mode: 'test' } })).json<Key>();
      const api = await h.request({ url: `/api/v1/templates/${t.id}`, headers: { authorization: `Bearer ${bKey.key}` } });
      assert.equal(api.status, 404);
      // An operator's account (the harness's A, paid) is invisible too.
      const aTpl = await h.request({ method: 'GET', url: '/api/v1/templates', as: h.actors.aTest });
      for (const other of aTpl.json<{ data: Template[] }>().data) assert.equal((await b.call('GET', `/dashboard/api/test/templates/${other.id}`)).status, 404);
    });

    it('the builder\'s save, rename and delete go through the API\'s use cases, in the session\'s partition only', async () => {
      const a = await signedUp(h);
      const b = await signedUp(h);
      const t = (await upload(a, fixture(OPENOFFICE))).json<Template & { fields: Array<Record<string, unknown>> }>();
      const sig = { name: 'client_signature', type: 'signature', label: 'Client signature', required: true, signer: 2, page: 1, x: 100, y: 700, width: 170, height: 42 };
      const fields = [...t.fields, sig];
      // Another account cannot edit or delete it.
      assert.equal((await b.call('PATCH', `/dashboard/api/test/templates/${t.id}`, { json: { name: 'mine now' } })).status, 404);
      assert.equal((await b.call('DELETE', `/dashboard/api/test/templates/${t.id}`)).status, 404);
      const saved = await a.call('PATCH', `/dashboard/api/test/templates/${t.id}`, { json: { name: 'Job application', fields } });
      assert.equal(saved.status, 200, saved.body);
      const key = (await a.call('POST', '/dashboard/api/keys', { json: { mode: 'test' } })).json<Key>().key!;
      const api = await h.request({ url: `/api/v1/templates/${t.id}`, headers: { authorization: `Bearer ${key}` } });
      const seen = api.json<{ name: string; signer_count: number; fields: Array<Record<string, unknown>> }>();
      assert.equal(seen.name, 'Job application');
      assert.equal(seen.signer_count, 2);
      assert.deepEqual(seen.fields.at(-1), sig);
      // A broken edit is refused in words, naming the field.
      const bad = await a.call('PATCH', `/dashboard/api/test/templates/${t.id}`, { json: { fields: [...fields, { ...sig }] } });
      assert.equal(bad.status, 400);
      assert.match(bad.json<{ error: { message: string; param: string } }>().error.param, /^fields\[\d+\]\.name$/);
      const gone = await a.call('DELETE', `/dashboard/api/test/templates/${t.id}`);
      assert.equal(gone.status, 200);
      assert.deepEqual((await a.call('GET', '/dashboard/api/test/templates')).json<{ data: unknown[] }>().data, []);
      assert.equal((await h.request({ url: `/api/v1/templates/${t.id}`, headers: { authorization: `Bearer ${key}` } })).status, 404);
    });

    it('keys: made with label and mode, shown once, listed as prefix and last four, revoked; live keys need a paid plan', async () => {
      const a = await signedUp(h);
      const made = await a.call('POST', '/dashboard/api/keys', { json: { mode: 'test', label: '  Zapier  ' } });
      assert.equal(made.status, 201);
      const k = made.json<Key>();
      assert.match(k.key!, /^fk_test_[0-9a-f]{32}$/);
      assert.equal(k.label, 'Zapier');
      assert.equal(k.display, `fk_test_…${k.key!.slice(-4)}`);
      const listed = (await a.call('GET', '/dashboard/api/keys')).json<{ data: Key[] }>().data;
      assert.equal(listed.length, 1);
      assert.equal(listed[0]!.key, undefined, 'the secret is never listed');
      assert.ok(!JSON.stringify(listed).includes(k.key!));
      // The key works, then stops working once revoked.
      assert.equal((await h.request({ url: '/api/v1/templates', headers: { authorization: `Bearer ${k.key}` } })).status, 200);
      const revoked = await a.call('POST', `/dashboard/api/keys/${k.id}/revoke`);
      assert.equal(revoked.status, 200);
      assert.ok(revoked.json<Key>().revoked_at);
      assert.equal((await h.request({ url: '/api/v1/templates', headers: { authorization: `Bearer ${k.key}` } })).status, 401);
      const live = await a.call('POST', '/dashboard/api/keys', { json: { mode: 'live' } });
      assert.equal(live.status, 402);
      assert.equal(errorCode(live), 'plan_required');
      const bad = await a.call('POST', '/dashboard/api/keys', { json: { mode: 'prod' } });
      assert.equal(errorCode(bad), 'parameter_invalid');
      // On a paid plan the live key is made and live mode opens.
      await h.deps.database.db.updateTable('accounts').set({ plan: 'paid' }).where('id', '=', a.accountId).execute();
      const liveOk = await a.call('POST', '/dashboard/api/keys', { json: { mode: 'live', label: 'prod' } });
      assert.equal(liveOk.status, 201);
      assert.match(liveOk.json<Key>().key!, /^fk_live_/);
      assert.equal((await a.call('GET', '/dashboard/api/live/templates')).status, 200);
    });

    it('wrong passwords are throttled per (e-mail, client address) pair (even the right password then waits) and per client address', async () => {
      const a = await signedUp(h, '10.1.1.1');
      const attacker = visitor(h, '10.9.9.9');
      for (let i = 0; i < LIMIT_PER_EMAIL_AND_IP; i++) {
        const res = await attacker.call('POST', '/dashboard/api/login', { json: { email: a.email, password: `wrong password ${i}` } });
        assert.equal(res.status, 401);
        assert.equal(errorCode(res), 'login_failed');
      }
      const blocked = await attacker.call('POST', '/dashboard/api/login', { json: { email: a.email, password: PASSWORD } });
      assert.equal(blocked.status, 429);
      assert.equal(errorCode(blocked), 'rate_limited');
      const retryAfter = Number(blocked.headers['retry-after']);
      assert.ok(retryAfter > 0 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
      assert.equal(attacker.cookie, undefined);
      // The owner, from another address, is not locked out by someone else's guesses: the five are
      // counted per (e-mail, address) pair.
      const owner = visitor(h, '10.1.1.2');
      assert.equal((await owner.call('POST', '/dashboard/api/login', { json: { email: a.email, password: PASSWORD } })).status, 200);
      assert.equal((await attacker.call('POST', '/dashboard/api/login', { json: { email: a.email, password: PASSWORD } })).status, 429, 'the owner\'s sign-in does not lift the attacker\'s count');
      // A different account from the attacker's address is still allowed (under the address limit).
      const b = await signedUp(h, '10.1.1.3');
      const other = visitor(h, '10.9.9.9');
      assert.equal((await other.call('POST', '/dashboard/api/login', { json: { email: b.email, password: PASSWORD } })).status, 200);
      // Per address: many accounts tried from one address are cut off too.
      const sprayer = visitor(h, '10.7.7.7');
      let limited = false;
      for (let i = 0; i < 40 && !limited; i++) {
        const res = await sprayer.call('POST', '/dashboard/api/login', { json: { email: uniqueEmail('nobody'), password: 'whatever it is' } });
        limited = res.status === 429;
        if (!limited) assert.equal(res.status, 401);
      }
      assert.ok(limited, 'one address trying many accounts gets 429');
      const c = await signedUp(h, '10.1.1.4');
      assert.equal((await sprayer.call('POST', '/dashboard/api/login', { json: { email: c.email, password: PASSWORD } })).status, 429);
    });

    it('one client address making accounts in bulk is throttled', async () => {
      for (let i = 0; i < SIGNUPS_PER_IP; i++) await signedUp(h, '10.66.66.66');
      const v = visitor(h, '10.66.66.66');
      const res = await v.call('POST', '/dashboard/api/signup', { json: { account_name: 'Bulk', email: uniqueEmail('bulk'), password: PASSWORD } });
      assert.equal(res.status, 429);
      assert.equal(errorCode(res), 'rate_limited');
      assert.ok(Number(res.headers['retry-after']) > 0);
      assert.equal((await signedUp(h, '10.66.66.67')).cookie !== undefined, true, 'another address still signs up');
    });

    it('an unknown address and a wrong password get the same answer', async () => {
      const a = await signedUp(h);
      const v = visitor(h, '10.3.3.3');
      const wrong = await v.call('POST', '/dashboard/api/login', { json: { email: a.email, password: 'not the password' } });
      const unknown = await v.call('POST', '/dashboard/api/login', { json: { email: uniqueEmail('ghost'), password: 'not the password' } });
      assert.equal(wrong.status, 401);
      assert.equal(unknown.status, 401);
      assert.equal(wrong.json<{ error: { message: string } }>().error.message, unknown.json<{ error: { message: string } }>().error.message);
    });

    it('a one-time link signs in once; the user then sets a password, which ends the other sessions', async () => {
      const account = h.actors.bTest.partition.accountId;
      const user = await createUser(h.deps.domain, { accountId: account, email: uniqueEmail('ops') });
      const link = await createLoginLink(h.deps.domain, user.email);
      assert.ok(link.url.startsWith(`${h.deps.domain.baseUrl}/dashboard/link#`));
      const token = link.url.split('#')[1]!;
      const v = visitor(h);
      const res = await v.call('POST', '/dashboard/api/login-link', { json: { token } });
      assert.equal(res.status, 200, res.body);
      assert.equal(res.json<Session>().account.id, account);
      assert.equal(res.json<Session>().user.has_password, false);
      const again = await visitor(h).call('POST', '/dashboard/api/login-link', { json: { token } });
      assert.equal(again.status, 401);
      assert.equal(errorCode(again), 'login_failed');
      const first = v.cookie!;
      const second = visitor(h);
      second.cookie = first;
      const set = await v.call('POST', '/dashboard/api/password', { json: { new_password: 'a brand new password' } });
      assert.equal(set.status, 200, set.body);
      assert.equal(set.json<Session>().user.has_password, true);
      assert.equal((await second.call('GET', '/dashboard/api/session')).status, 401, 'the old session ended');
      assert.equal((await v.call('GET', '/dashboard/api/session')).status, 200, 'this browser has a new one');
      const login = await visitor(h).call('POST', '/dashboard/api/login', { json: { email: user.email, password: 'a brand new password' } });
      assert.equal(login.status, 200);
      // Changing it needs the current one.
      const change = await v.call('POST', '/dashboard/api/password', { json: { current_password: 'wrong wrong wrong', new_password: 'yet another password' } });
      assert.equal(change.status, 400);
    });

    it('the first start gives the demo account a user and a sign-in link that opens its dashboard', async () => {
      // bootstrapDemo runs only on an empty store: a fresh harness has accounts, so empty it first.
      const fresh = await createHarness(dialect);
      try {
        const db = fresh.deps.database.db;
        await db.deleteFrom('api_keys').execute();
        await db.deleteFrom('accounts').execute();
        const demo = await bootstrapDemo(fresh.deps.domain);
        assert.ok(demo);
        const v = visitor(fresh);
        const res = await v.call('POST', '/dashboard/api/login-link', { json: { token: demo.loginLink.split('#')[1] } });
        assert.equal(res.status, 200, res.body);
        assert.equal(res.json<Session>().account.id, demo.account.id);
        const list = await v.call('GET', '/dashboard/api/test/templates');
        assert.deepEqual(list.json<{ data: Template[] }>().data.map((t) => t.id), [demo.template.id]);
      } finally {
        await fresh.close();
      }
    });
  });
}

describe('dashboard session cookie on an https BASE_URL', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness('sqlite', { env: { BASE_URL: 'https://forms.example.com' } });
  });
  after(() => h.close());

  it('is Secure as well as HttpOnly and SameSite=Lax', async () => {
    const v = visitor(h);
    const res = await v.call('POST', '/dashboard/api/signup', { json: { account_name: 'Acme', email: uniqueEmail(), password: PASSWORD } });
    assert.equal(res.status, 201);
    assert.match(String(res.headers['set-cookie']), /; HttpOnly; SameSite=Lax; Secure$/);
    const out = await v.call('POST', '/dashboard/api/logout');
    assert.match(String(out.headers['set-cookie']), /Max-Age=0; HttpOnly; SameSite=Lax; Secure$/);
  });
});
