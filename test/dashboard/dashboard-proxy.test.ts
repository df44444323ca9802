import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { LIMIT_PER_EMAIL_AND_IP } from '../../src/domain/users/login-throttle.js';
import { createHarness, type Harness } from '../harness.js';
import { errorCode, PASSWORD, signedUp, uniqueEmail, visitor } from './support.js';

// Behind a reverse proxy: TRUST_PROXY names the proxies whose X-Forwarded-For gives the client's
// address (so the throttles count clients, not the proxy), and sign-up/sign-in accept the Origin of
// BASE_URL whatever Host the proxy forwards.

const PROXY = '10.60.0.1';

describe('TRUST_PROXY configuration', () => {
  it('takes true, false, or a list of addresses, CIDR ranges and proxy-addr names; unset is false', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,fd00::/8,loopback' }).trustProxy, ['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8', 'loopback']);
  });

  it('refuses anything else, naming the variable (a hop count with the reason)', () => {
    for (const bad of ['yes', '10.0.0.300', '10.0.0.0/33', 'fd00::/129', '10.0.0.1,', 'proxy.example.com', '10.0.0.1/']) {
      assert.throws(() => loadConfig({ TRUST_PROXY: bad }), (err: unknown) => err instanceof ConfigError && err.variable === 'TRUST_PROXY' && /comma-separated list/.test(err.message), bad);
    }
    assert.throws(() => loadConfig({ TRUST_PROXY: '2' }), /a number of hops is not supported/);
  });
});

async function failFive(h: Harness, email: string, forwardedFor: string): Promise<void> {
  const v = visitor(h, PROXY);
  for (let i = 0; i < LIMIT_PER_EMAIL_AND_IP; i++) {
    const res = await v.call('POST', '/dashboard/api/login', { json: { email, password: `wrong password ${i}` }, headers: { 'x-forwarded-for': forwardedFor } });
    assert.equal(res.status, 401, res.body);
  }
}

const login = (h: Harness, email: string, forwardedFor: string) =>
  visitor(h, PROXY).call('POST', '/dashboard/api/login', { json: { email, password: PASSWORD }, headers: { 'x-forwarded-for': forwardedFor } });

describe('dashboard behind a trusted proxy (TRUST_PROXY=10.60.0.0/16)', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness('sqlite', { env: { TRUST_PROXY: '10.60.0.0/16' } });
  });
  after(() => h.close());

  it('counts failures by the forwarded client address: another client behind the same proxy is not held back', async () => {
    const a = await signedUp(h, '10.61.0.1');
    await failFive(h, a.email, '203.0.113.7');
    assert.equal((await login(h, a.email, '203.0.113.7')).status, 429, 'the guessing client waits');
    assert.equal((await login(h, a.email, '198.51.100.9')).status, 200, 'another client of the proxy signs in');
  });

  it('believes X-Forwarded-For only from the proxy: a client connecting directly cannot pick its address', async () => {
    const a = await signedUp(h, '10.61.0.2');
    const direct = visitor(h, '192.0.2.50');
    for (let i = 0; i < LIMIT_PER_EMAIL_AND_IP; i++) {
      const res = await direct.call('POST', '/dashboard/api/login', { json: { email: a.email, password: `wrong ${i} password` }, headers: { 'x-forwarded-for': `198.18.0.${i + 1}` } });
      assert.equal(res.status, 401);
    }
    const again = await direct.call('POST', '/dashboard/api/login', { json: { email: a.email, password: PASSWORD }, headers: { 'x-forwarded-for': '198.18.9.9' } });
    assert.equal(again.status, 429, 'counted by its own address whatever it forwards');
  });
});

describe('dashboard behind a proxy without TRUST_PROXY', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness('sqlite');
  });
  after(() => h.close());

  it('ignores X-Forwarded-For: every client of the proxy is the proxy', async () => {
    const a = await signedUp(h, '10.62.0.1');
    await failFive(h, a.email, '203.0.113.7');
    assert.equal((await login(h, a.email, '198.51.100.9')).status, 429);
  });
});

describe('sign-up and sign-in origin check against BASE_URL', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness('sqlite', { env: { BASE_URL: 'https://forms.example.com' } });
  });
  after(() => h.close());

  const signup = (headers: Record<string, string>) =>
    visitor(h).call('POST', '/dashboard/api/signup', { json: { account_name: 'Acme', email: uniqueEmail('origin'), password: PASSWORD }, headers });

  it('accepts the public origin even when the proxy forwards another Host', async () => {
    const res = await signup({ origin: 'https://forms.example.com', host: 'formsign-internal:3000' });
    assert.equal(res.status, 201, res.body);
  });

  it('refuses another origin, even one that matches the Host header, and the public host on another scheme or port', async () => {
    for (const [origin, host] of [['https://evil.example', 'forms.example.com'], ['https://rebound.example', 'rebound.example'], ['http://forms.example.com', 'forms.example.com'], ['https://forms.example.com:8443', 'forms.example.com:8443'], ['null', 'forms.example.com']] as const) {
      const res = await signup({ origin, host });
      assert.equal(res.status, 403, `${origin} → ${res.status}`);
      assert.equal(errorCode(res), 'csrf_token_invalid');
      assert.match(res.json<{ error: { message: string } }>().error.message, /https:\/\/forms\.example\.com/, 'names the address to use');
    }
  });

  it('a request without Origin (not from a browser page) is accepted', async () => {
    assert.equal((await signup({ host: 'formsign-internal:3000' })).status, 201);
  });
});

describe('origin check on a loopback BASE_URL', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness('sqlite', { env: { BASE_URL: 'http://localhost:3000' } });
  });
  after(() => h.close());

  it('treats localhost, 127.0.0.1 and [::1] on the same port as one origin', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
      const res = await visitor(h).call('POST', '/dashboard/api/signup', { json: { account_name: 'Local', email: uniqueEmail('local'), password: PASSWORD }, headers: { origin } });
      assert.equal(res.status, 201, `${origin}: ${res.body}`);
    }
    const other = await visitor(h).call('POST', '/dashboard/api/signup', { json: { account_name: 'Local', email: uniqueEmail('local'), password: PASSWORD }, headers: { origin: 'http://127.0.0.1:4000' } });
    assert.equal(other.status, 403);
  });
});
