import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSampleTemplate } from '../../src/domain/templates/import-template.js';
import { REQUEST_ID } from '../contract-check.js';
import { DIALECTS, createHarness, errorOf, type Harness, type TestResponse } from '../harness.js';
import { listen, rawExchange, type RawResult } from './raw-http.js';

// Requests built to hurt: every answer is the contract's error (status, code, request id), the same
// on both databases, and never echoes the offending input back.

const expectError = (res: TestResponse, status: number, code: string, param?: string) => {
  assert.equal(res.status, status, res.body.slice(0, 300));
  const e = errorOf(res);
  assert.equal(e.code, code);
  assert.equal(e.request_id, res.headers['service-request-id']);
  assert.equal(e.param, param);
  return e;
};

const rawError = (r: RawResult, status: number, code: string) => {
  assert.match(r.head, new RegExp(`^HTTP/1\\.1 ${status} `), r.head);
  assert.match(r.head, /\r\nConnection: close\r\n/i);
  assert.match(r.head, /\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
  const id = /\r\nService-Request-Id: (\S+)\r\n/i.exec(r.head)?.[1];
  assert.match(String(id), REQUEST_ID);
  const e = (JSON.parse(r.body) as { error: { type: string; code: string; message: string; request_id: string } }).error;
  assert.equal(e.type, 'invalid_request_error');
  assert.equal(e.code, code);
  assert.equal(e.request_id, id);
  return e;
};

describe("requests Node's parser refuses still carry the contract", () => {
  let h: Harness;
  let port: number;
  before(async () => {
    h = await createHarness('sqlite');
    port = await listen(h.app);
  });
  after(() => h.close());

  it('over-long headers → 431 payload_too_large with Service-Request-Id, connection closed', async () => {
    const r = await rawExchange(port, async (s) => {
      s.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    const e = rawError(r, 431, 'payload_too_large');
    assert.match(e.message, /16 KiB/);
  });

  it('an over-long URL → 431 too, without echoing it', async () => {
    const r = await rawExchange(port, async (s) => {
      s.write(`GET /api/v1/templates?x=${'b'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    });
    rawError(r, 431, 'payload_too_large');
    assert.ok(!r.body.includes('bbbb'));
  });

  it('a malformed request line or Content-Length → 400 parameter_invalid', async () => {
    for (const bytes of ['GET /healthz HTTP/9.9 nonsense\r\n\r\n', 'NOT A REQUEST\r\n\r\n', 'POST /api/v1/forms HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 'POST /api/v1/forms HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello']) {
      const r = await rawExchange(port, async (s) => {
        s.write(bytes);
      });
      rawError(r, 400, 'parameter_invalid');
    }
  });
});

describe('shutting down: requests still arriving get the contract', () => {
  it('a request arriving on a kept-alive connection after close starts → 503 service_unavailable with Retry-After and a request id', async () => {
    const h = await createHarness('sqlite');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    h.app.get('/test/held', async () => {
      started();
      await held;
      return { ok: true };
    });
    const port = await listen(h.app);
    try {
      let closing: Promise<undefined> | undefined;
      const exchange = rawExchange(port, async (s) => {
        s.write('GET /test/held HTTP/1.1\r\nHost: x\r\n\r\n');
        await inFlight;
        closing = h.app.close();
        await new Promise((r) => setTimeout(r, 100));
        // On the same connection, behind the request in flight: arrives once shutdown has begun.
        s.write('GET /api/v1/templates HTTP/1.1\r\nHost: x\r\n\r\n');
        await new Promise((r) => setTimeout(r, 100));
        release();
      });
      const r = await exchange;
      await closing;
      const second = r.body.slice(r.body.indexOf('HTTP/1.1 '));
      assert.match(r.head, /^HTTP\/1\.1 200 /, 'the request in flight completes');
      assert.match(second, /^HTTP\/1\.1 503 /, second.slice(0, 200));
      assert.match(second, /\r\nretry-after: 1\r\n/i);
      const id = /\r\nservice-request-id: (\S+)\r\n/i.exec(second)?.[1];
      assert.match(String(id), REQUEST_ID);
      const e = (JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)) as { error: { code: string; request_id: string } }).error;
      assert.equal(e.code, 'service_unavailable');
      assert.equal(e.request_id, id);
    } finally {
      release();
      await h.close();
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`hostile requests (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    before(async () => {
      h = await createHarness(dialect);
      templateId = (await createSampleTemplate(h.deps.domain, h.actors.aTest.partition)).id;
    });
    after(() => h.close());

    const post = (url: string, json: unknown) => h.request({ method: 'POST', url, as: h.actors.aTest, json });

    it('a path id over 100 characters → 404 resource_not_found, the path not echoed', async () => {
      for (const url of [`/api/v1/templates/${'a'.repeat(101)}`, `/api/v1/forms/form_${'Z'.repeat(500)}/pdf`, `/api/v1/forms/${'q'.repeat(5000)}/events`]) {
        const res = await h.request({ url, as: h.actors.aTest });
        const e = expectError(res, 404, 'resource_not_found');
        assert.ok(!res.body.includes('aaaaaaaaaa') && !res.body.includes('ZZZZZZZZZZ') && !res.body.includes('qqqqqqqqqq'), e.message);
      }
    });

    it('NUL in a body string, a body key or nested → 400 parameter_invalid naming the param', async () => {
      expectError(await post('/api/v1/forms', { template_id: templateId, name: 'a\u0000b' }), 400, 'parameter_invalid', 'name');
      expectError(await post('/api/v1/forms', { template_id: `tmpl_\u0000` }), 400, 'parameter_invalid', 'template_id');
      expectError(await post('/api/v1/forms', { template_id: templateId, prefill: { full_name: 'x\u0000' } }), 400, 'parameter_invalid', 'prefill.full_name');
      expectError(await post('/api/v1/forms', { template_id: templateId, metadata: { 'k\u0000': 'v' } }), 400, 'parameter_invalid', 'metadata.k\\u0000');
      const e = expectError(await post('/api/v1/forms', { template_id: templateId, name: '\u0000' }), 400, 'parameter_invalid', 'name');
      assert.match(e.message, /NUL/);
      // Nothing was created by any of them.
      const list = await h.request({ url: '/api/v1/forms', as: h.actors.aTest });
      assert.deepEqual(list.json<{ data: unknown[] }>().data, []);
    });

    it('NUL in a query parameter → 400 with param; in a path id → 404', async () => {
      expectError(await h.request({ url: '/api/v1/forms?status=draft%00', as: h.actors.aTest }), 400, 'parameter_invalid', 'status');
      expectError(await h.request({ url: '/api/v1/templates?starting_after=tmpl_%00', as: h.actors.aTest }), 400, 'parameter_invalid', 'starting_after');
      for (const url of ['/api/v1/templates/tmpl_%00', '/api/v1/forms/form_%00abc', '/api/v1/forms/%00/pdf', '/api/v1/forms/%00/events']) {
        expectError(await h.request({ url, as: h.actors.aTest }), 404, 'resource_not_found');
      }
    });

    it('string lengths count code points: a 200-emoji name is 200 characters, 201 is too long', async () => {
      const ok = await post('/api/v1/forms', { template_id: templateId, name: '😀'.repeat(200) });
      assert.equal(ok.status, 201, ok.body.slice(0, 300));
      assert.equal(ok.json<{ name: string }>().name, '😀'.repeat(200));
      const read = await h.request({ url: `/api/v1/forms/${ok.json<{ id: string }>().id}`, as: h.actors.aTest });
      assert.equal(read.json<{ name: string }>().name, '😀'.repeat(200), 'stored and read back whole');
      const e = expectError(await post('/api/v1/forms', { template_id: templateId, name: '😀'.repeat(201) }), 400, 'parameter_invalid', 'name');
      assert.match(e.message, /200 characters/);
    });

    it('an enum error names the allowed values', async () => {
      const e = expectError(await h.request({ url: '/api/v1/forms?status=done', as: h.actors.aTest }), 400, 'parameter_invalid', 'status');
      assert.match(e.message, /status'?:? must be one of draft, sent, viewed, signed, expired, declined, voided, deleted\./);
    });

    it('415 names the content type the endpoint accepts', async () => {
      const json = expectError(
        await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: 'template_id=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
        415,
        'unsupported_media_type',
      );
      assert.match(json.message, /`application\/json`/);
      assert.match(json.message, /application\/x-www-form-urlencoded/);
      const upload = expectError(
        await h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: '{}', headers: { 'content-type': 'application/json' } }),
        415,
        'unsupported_media_type',
      );
      assert.match(upload.message, /`multipart\/form-data`/);
      const untyped = expectError(await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: '{"template_id":"x"}' }), 415, 'unsupported_media_type');
      assert.match(untyped.message, /without a Content-Type/);
    });

    it('a multipart body sent to a JSON operation is a 415 naming JSON, not parsed', async () => {
      const multipart = { 'content-type': 'multipart/form-data; boundary=xyz' };
      const payload = '--xyz\r\nContent-Disposition: form-data; name="template_id"\r\n\r\nx\r\n--xyz--\r\n';
      const onJson = expectError(await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload, headers: multipart }), 415, 'unsupported_media_type');
      assert.match(onJson.message, /`application\/json`/);
    });
  });
}
