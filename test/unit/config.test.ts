import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('config', () => {
  it('defaults match CONTRACT.md Part C', () => {
    const c = loadConfig({});
    assert.equal(c.port, 3000);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.baseUrl, 'http://localhost:3000');
    assert.equal(c.dataDir, path.resolve('./data'));
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.s3, undefined);
    assert.equal(c.webhooks.allowPrivateNetworks, false);
    assert.equal(c.webhooks.retryScale, 1);
    assert.equal(c.worker, 'inline');
    assert.ok(Object.isFrozen(c) && Object.isFrozen(c.webhooks), 'frozen');
  });

  it('PORT out of range says which numbers it takes', () => {
    for (const port of ['abc', '70000', '-1', '80.5']) {
      assert.throws(() => loadConfig({ PORT: port }), { message: 'Invalid configuration: PORT must be a whole number between 1 and 65535' });
    }
  });

  it('LOG_FORMAT: pretty on a terminal unless set, JSON lines otherwise', () => {
    assert.equal(loadConfig({}, false).logFormat, 'json');
    assert.equal(loadConfig({}, true).logFormat, 'pretty');
    assert.equal(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat, 'json');
    assert.equal(loadConfig({ LOG_FORMAT: 'pretty' }, false).logFormat, 'pretty');
  });

  it('BASE_URL follows PORT and loses a trailing slash', () => {
    assert.equal(loadConfig({ PORT: '8080' }).baseUrl, 'http://localhost:8080');
    // Issue 22: a server on PORT=3401 printed links and /docs servers on port 3000.
    assert.equal(loadConfig({ PORT: '3401' }).baseUrl, 'http://localhost:3401');
    assert.equal(loadConfig({ PORT: '3401', BASE_URL: '' }).baseUrl, 'http://localhost:3401');
    assert.equal(loadConfig({ PORT: '3401', BASE_URL: 'https://sign.example.com' }).baseUrl, 'https://sign.example.com');
    assert.equal(loadConfig({ BASE_URL: 'https://sign.example.com/' }).baseUrl, 'https://sign.example.com');
  });

  const invalid: Array<[Record<string, string>, string]> = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ BASE_URL: 'not a url' }, 'BASE_URL'],
    [{ BASE_URL: 'ftp://x' }, 'BASE_URL'],
    [{ DATABASE_URL: 'mysql://localhost/x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://localhost' }, 'REDIS_URL'],
    [{ S3_BUCKET: 'b' }, 'S3_REGION'],
    [{ S3_ENDPOINT: 'nope' }, 'S3_ENDPOINT'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ SMS_PROVIDER_URL: 'x' }, 'SMS_PROVIDER_URL'],
    [{ SIGNING_CERT_PASSWORD: 'p' }, 'SIGNING_CERT_P12'],
    [{ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' }, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'],
    [{ WEBHOOK_RETRY_SCALE: '0' }, 'WEBHOOK_RETRY_SCALE'],
    [{ WEBHOOK_RETRY_SCALE: 'fast' }, 'WEBHOOK_RETRY_SCALE'],
    [{ LLM_BASE_URL: 'localhost:8080' }, 'LLM_BASE_URL'],
    [{ WORKER: 'sometimes' }, 'WORKER'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
  ];
  for (const [env, variable] of invalid) {
    it(`refuses ${JSON.stringify(env)} naming ${variable}`, () => {
      assert.throws(
        () => loadConfig(env),
        (e: unknown) => e instanceof ConfigError && e.variable === variable && e.message.startsWith(`Invalid configuration: ${variable} `),
      );
    });
  }

  it('accepts a complete valid set', () => {
    const c = loadConfig({
      PORT: '4000', DATABASE_URL: 'postgres://u@h:5432/d', REDIS_URL: 'redis://127.0.0.1:6379',
      S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'b', S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001', WORKER: 'off',
    });
    assert.equal(c.port, 4000);
    assert.equal(c.s3?.bucket, 'b');
    assert.equal(c.webhooks.allowPrivateNetworks, true);
    assert.equal(c.webhooks.retryScale, 0.001);
    assert.equal(c.worker, 'off');
  });
});

// Issue 25: the time-stamping authorities seals ask.
describe('config: TSA_URLS', () => {
  it('unset: no TSA (seals stay B-B)', () => {
    assert.equal(loadConfig({}).tsa, undefined);
  });

  it('an ordered list, trimmed, with the per-TSA timeout and optional credentials', () => {
    const c = loadConfig({ TSA_URLS: ' http://tsa.one/ , https://tsa.two/tsr', TSA_USERNAME: 'u', TSA_PASSWORD: 'p', TSA_TIMEOUT_MS: '2500' });
    assert.deepEqual(c.tsa, { urls: ['http://tsa.one/', 'https://tsa.two/tsr'], timeoutMs: 2500, username: 'u', password: 'p' });
    assert.equal(loadConfig({ TSA_URLS: 'http://tsa.one/' }).tsa?.timeoutMs, 10_000);
  });

  it('refuses what is not a list of http(s) URLs, credentials without TSAs and a timeout out of range, naming the variable', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ TSA_URLS: 'ftp://tsa.one/' }, 'TSA_URLS'],
      [{ TSA_URLS: 'http://tsa.one/,not a url' }, 'TSA_URLS'],
      [{ TSA_URLS: ',' }, 'TSA_URLS'],
      [{ TSA_USERNAME: 'u' }, 'TSA_URLS'],
      [{ TSA_URLS: 'http://tsa.one/', TSA_TIMEOUT_MS: '5' }, 'TSA_TIMEOUT_MS'],
    ];
    for (const [env, variable] of cases) {
      assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError && e.variable === variable, JSON.stringify(env));
    }
  });
});

describe('config: OIDC_* (issue 39, single sign-on)', () => {
  it('the provider and client, with the redirect URI derived from BASE_URL', () => {
    const c = loadConfig({ BASE_URL: 'https://sign.acme.test/', OIDC_ISSUER_URL: 'https://id.acme.test/realms/acme', OIDC_CLIENT_ID: 'formsign', OIDC_CLIENT_SECRET: 's3cret' });
    assert.deepEqual(c.oidc, { issuerUrl: 'https://id.acme.test/realms/acme', clientId: 'formsign', clientSecret: 's3cret', redirectUri: 'https://sign.acme.test/dashboard/sso/callback' });
    assert.equal(loadConfig({}).oidc, undefined);
    assert.equal(loadConfig({ OIDC_ISSUER_URL: 'http://127.0.0.1:4444', OIDC_CLIENT_ID: 'public' }).oidc?.clientSecret, undefined, 'a public client, on loopback over http');
  });

  it('refuses plain http off this machine and a half configuration, naming the variable', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ OIDC_ISSUER_URL: 'http://id.acme.test', OIDC_CLIENT_ID: 'x' }, 'OIDC_ISSUER_URL'],
      [{ OIDC_ISSUER_URL: 'https://id.acme.test' }, 'OIDC_CLIENT_ID'],
      [{ OIDC_CLIENT_ID: 'x' }, 'OIDC_ISSUER_URL'],
      [{ OIDC_CLIENT_SECRET: 'x' }, 'OIDC_ISSUER_URL'],
    ];
    for (const [env, variable] of cases) {
      assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError && e.variable === variable, JSON.stringify(env));
    }
  });
});
