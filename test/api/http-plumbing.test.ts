import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness, type TestResponse } from '../harness.js';
import { REQUEST_ID } from '../contract-check.js';

for (const dialect of DIALECTS) {
  describe(`HTTP plumbing (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect);
    });
    after(() => h.close());

    const expectError = (res: TestResponse, status: number, type: string, code: string, param?: string) => {
      assert.equal(res.status, status, res.body);
      const e = errorOf(res);
      assert.equal(e.type, type);
      assert.equal(e.code, code);
      assert.ok(e.message.length > 10 && /[.!?]$/.test(e.message), `a sentence: ${e.message}`);
      assert.equal(e.request_id, res.headers['service-request-id']);
      if (param !== undefined) assert.equal(e.param, param);
      return e;
    };

    it('Service-Request-Id on every kind of response, unique per request', async () => {
      const seen = new Set<string>();
      const cases: Array<[string, () => Promise<TestResponse>, number]> = [
        ['healthz', () => h.request({ url: '/healthz' }), 200],
        ['readyz', () => h.request({ url: '/readyz' }), 200],
        ['401', () => h.request({ url: '/api/v1/templates' }), 401],
        ['404 route', () => h.request({ url: '/nope' }), 404],
        ['404 api route', () => h.request({ url: '/api/v1/nope', as: h.actors.aTest }), 404],
        ['405', () => h.request({ method: 'DELETE', url: '/api/v1/templates', as: h.actors.aTest }), 405],
        ['413', () => h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: JSON.stringify({ template_id: 'x'.repeat(1_100_000) }), headers: { 'content-type': 'application/json' } }), 413],
        ['415', () => h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: 'template_id=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415],
        ['400', () => h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: '{', headers: { 'content-type': 'application/json' } }), 400],
        ['openapi', () => h.request({ url: '/api/v1/openapi.yaml', as: h.actors.aTest }), 200],
        ['sdk', () => h.request({ url: '/api/v1/sdk/typescript', as: h.actors.bTest }), 200],
        ['list', () => h.request({ url: '/api/v1/templates', as: h.actors.aTest }), 200],
        ['home page', () => h.request({ url: '/' }), 200],
        ['docs page', () => h.request({ url: '/docs' }), 200],
        ['dashboard page', () => h.request({ url: '/dashboard' }), 200],
        ['signing page 404', () => h.request({ url: '/sign/anything' }), 404],
        ['404 id too long', () => h.request({ url: `/api/v1/forms/${'x'.repeat(200)}`, as: h.actors.aTest }), 404],
        ['404 NUL id', () => h.request({ url: '/api/v1/forms/%00', as: h.actors.aTest }), 404],
      ];
      for (const [name, run, status] of cases) {
        const res = await run();
        assert.equal(res.status, status, `${name}: ${res.body.slice(0, 200)}`);
        const id = String(res.headers['service-request-id']);
        assert.match(id, REQUEST_ID, name);
        assert.ok(!seen.has(id), `${name}: unique`);
        seen.add(id);
      }
    });

    it('the request id is written to the log lines of that request', async () => {
      const lines: string[] = [];
      const logged = await createHarness(dialect, { logStream: { write: (l: string) => void lines.push(l) } });
      try {
        const res = await logged.request({ url: '/api/v1/templates', as: logged.actors.aTest });
        const id = String(res.headers['service-request-id']);
        const mine = lines.map((l) => JSON.parse(l) as { request_id?: string; msg?: string }).filter((l) => l.request_id === id);
        // One access-log line per request (issue 14), not Fastify's two.
        assert.deepEqual(mine.map((l) => l.msg), ['request completed'], lines.join(''));
      } finally {
        await logged.close();
      }
    });

    it('a client-sent request id is not trusted', async () => {
      const res = await h.request({ url: '/healthz', headers: { 'service-request-id': 'req_' + '0'.repeat(32), 'request-id': 'x' } });
      assert.notEqual(res.headers['service-request-id'], 'req_' + '0'.repeat(32));
    });

    it('unknown routes → 404 route_not_found; wrong method → 405 with Allow', async () => {
      expectError(await h.request({ url: '/api/v1/templatez', as: h.actors.aTest }), 404, 'not_found_error', 'route_not_found');
      const res = await h.request({ method: 'PUT', url: '/api/v1/forms', as: h.actors.aTest, json: {} });
      expectError(res, 405, 'invalid_request_error', 'method_not_allowed');
      assert.equal(res.headers['allow'], 'GET, POST, HEAD');
      const one = await h.request({ method: 'PUT', url: '/api/v1/templates/tmpl_x', as: h.actors.aTest, json: {} });
      expectError(one, 405, 'invalid_request_error', 'method_not_allowed');
      assert.equal(one.headers['allow'], 'GET, DELETE, PATCH, HEAD');
    });

    it('bad JSON → 400 invalid_json; empty JSON body → invalid_json', async () => {
      for (const payload of ['{', '{"template_id": }', 'null x', '[1,']) {
        expectError(await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload, headers: { 'content-type': 'application/json' } }), 400, 'invalid_request_error', 'invalid_json');
      }
      expectError(await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: '', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request_error', 'invalid_json');
    });

    it('a __proto__ key anywhere → invalid_json saying so, and nothing is created', async () => {
      const before = await h.request({ url: '/api/v1/forms?limit=100', as: h.actors.aTest });
      for (const payload of ['{"template_id":"tmpl_x","prefill":{"__proto__":{"admin":true}}}', '{"__proto__":{"x":1},"template_id":"tmpl_x"}', '{"template_id":"tmpl_x","metadata":{"constructor":{"prototype":{"x":"1"}}}}']) {
        const e = expectError(await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload, headers: { 'content-type': 'application/json' } }), 400, 'invalid_request_error', 'invalid_json');
        assert.match(e.message, /__proto__/);
      }
      assert.equal(({} as Record<string, unknown>)['admin'], undefined);
      const afterwards = await h.request({ url: '/api/v1/forms?limit=100', as: h.actors.aTest });
      assert.equal(afterwards.body, before.body);
    });

    it('unknown top-level field → parameter_unknown; never silently stripped', async () => {
      const res = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: 'tmpl_x', tempalte: 1 } });
      const e = expectError(res, 400, 'invalid_request_error', 'parameter_unknown', 'tempalte');
      assert.match(e.message, /tempalte/);
    });

    it('missing required → parameter_missing; wrong type → parameter_invalid (no coercion)', async () => {
      expectError(await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: {} }), 400, 'invalid_request_error', 'parameter_missing', 'template_id');
      expectError(await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest }), 400, 'invalid_request_error', 'parameter_missing', 'template_id');
      expectError(await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: 123 } }), 400, 'invalid_request_error', 'parameter_invalid', 'template_id');
      expectError(await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: [] }), 400, 'invalid_request_error', 'parameter_invalid');
      // "30" is not 30: a JSON body is not coerced.
      const res = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: 'tmpl_000000000000000000000000', expires_in_days: '30' } });
      expectError(res, 400, 'invalid_request_error', 'parameter_invalid', 'expires_in_days');
    });

    it('query parameters: invalid and unknown ones are refused', async () => {
      expectError(await h.request({ url: '/api/v1/templates?limit=0', as: h.actors.aTest }), 400, 'invalid_request_error', 'parameter_invalid', 'limit');
      expectError(await h.request({ url: '/api/v1/templates?limit=101', as: h.actors.aTest }), 400, 'invalid_request_error', 'parameter_invalid', 'limit');
      expectError(await h.request({ url: '/api/v1/templates?limit=abc', as: h.actors.aTest }), 400, 'invalid_request_error', 'parameter_invalid', 'limit');
      expectError(await h.request({ url: '/api/v1/templates?colour=red', as: h.actors.aTest }), 400, 'invalid_request_error', 'parameter_unknown', 'colour');
      expectError(await h.request({ url: '/api/v1/templates?starting_after=tmpl_000000000000000000000000', as: h.actors.aTest }), 400, 'invalid_request_error', 'parameter_invalid', 'starting_after');
    });

    it('huge body → 413 payload_too_large; other media type → 415', async () => {
      const big = JSON.stringify({ template_id: 'tmpl_x', prefill: { a: 'x'.repeat(1024 * 1024) } });
      expectError(await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: big, headers: { 'content-type': 'application/json' } }), 413, 'invalid_request_error', 'payload_too_large');
      expectError(await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: 'hello', headers: { 'content-type': 'text/plain' } }), 415, 'invalid_request_error', 'unsupported_media_type');
    });

    it('unknown ids → 404 resource_not_found, whatever their shape', async () => {
      for (const id of ['tmpl_000000000000000000000000', 'nope', 'tmpl_%27%20or%201%3D1']) {
        const e = expectError(await h.request({ url: `/api/v1/templates/${id}`, as: h.actors.aTest }), 404, 'not_found_error', 'resource_not_found');
        assert.match(e.message, /template/);
      }
    });

    it('an unexpected failure → 500 internal_error without details', async () => {
      // Break the store under a real request: the template's file vanishes before its form is rendered.
      const list = await h.request({ url: '/api/v1/templates', as: h.actors.aTest });
      assert.equal(list.status, 200);
      const { createSampleTemplate } = await import('../../src/domain/templates/import-template.js');
      const t = await createSampleTemplate(h.deps.domain, h.actors.aTest.partition);
      const form = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: t.id } });
      assert.equal(form.status, 201);
      const row = await h.deps.database.db.selectFrom('templates').select('pdf_key').where('id', '=', t.id).executeTakeFirstOrThrow();
      // A file store that fails in a way nobody planned for (not a missing file: that is 409
      // source_pdf_missing, issue 35) answers 500 without its details.
      const blobs = h.deps.domain.blobs;
      const get = blobs.get.bind(blobs);
      blobs.get = async (key) => {
        if (key === row.pdf_key) throw new Error(`EIO: the disk under ${row.pdf_key} is on fire`);
        return get(key);
      };
      try {
        const res = await h.request({ url: `/api/v1/forms/${form.json().id}/pdf`, as: h.actors.aTest });
        const e = expectError(res, 500, 'api_error', 'internal_error');
        assert.ok(!e.message.includes(row.pdf_key) && !e.message.includes('fire'), 'no internals leak');
      } finally {
        blobs.get = get;
      }
      await h.deps.domain.blobs.delete(row.pdf_key);
      const gone = await h.request({ url: `/api/v1/forms/${form.json().id}/pdf`, as: h.actors.aTest });
      const missing = expectError(gone, 409, 'conflict_error', 'source_pdf_missing');
      assert.ok(!missing.message.includes(row.pdf_key), 'the key is not named');
    });

    it('/readyz answers 503 service_unavailable when the database is gone', async () => {
      const broken = await createHarness(dialect);
      await broken.deps.database.close();
      const res = await broken.request({ url: '/readyz' });
      expectError(res, 503, 'api_error', 'service_unavailable');
      await broken.close();
    });
  });
}
