import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordSealedForm } from '../../src/domain/signing/record-sealed-form.js';
import { makeSampleTemplatePdf } from '../../src/pdf/index.js';
import { REQUEST_ID } from '../contract-check.js';
import { DIALECTS, createHarness, errorOf, type Harness, type TestResponse } from '../harness.js';
import { listen, rawExchange } from '../api/raw-http.js';
import { multipart } from '../shared/multipart.js';
import { seedTemplate } from '../shared/seed.js';
import { FakeClock } from '../outbox/support/sending.js';

// Issue 26, defects 1, 2, 4-8 and 10 as the probe reported them, each reproduced through the API on
// both databases. (3: probe-pdf-bombs, 9: probe-message-purge, 11: probe-expire, 12: probe-disk-full.)

const expectError = (res: TestResponse, status: number, code: string, param?: string) => {
  assert.equal(res.status, status, res.body.slice(0, 300));
  const e = errorOf(res);
  assert.equal(e.code, code, e.message);
  assert.equal(e.request_id, res.headers['service-request-id']);
  if (param !== undefined) assert.equal(e.param, param);
  return e;
};

const limitHeaders = (res: TestResponse) => Object.keys(res.headers).filter((k) => k.startsWith('x-ratelimit')).sort();

for (const dialect of DIALECTS) {
  describe(`the probe's defects (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    before(async () => {
      h = await createHarness(dialect);
      templateId = await seedTemplate(h, h.actors.aTest.partition, 'Probe', '2026-01-01T00:00:00.000Z');
    });
    after(() => h.close());

    const post = (url: string, json: unknown) => h.request({ method: 'POST', url, as: h.actors.aTest, json });
    const newForm = async () => (await post('/api/v1/forms', { template_id: templateId })).json<{ id: string }>().id;

    it('1: a 200 KB body of 100,000 nested arrays → 400, never a 500, on every JSON endpoint', async () => {
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      assert.ok(deep.length === 200_000);
      const formId = await newForm();
      const wh = await post('/api/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['form.sent'] });
      const whId = wh.json<{ id: string }>().id;
      const targets: Array<[string, string]> = [
        ['POST', '/api/v1/forms'], ['POST', '/api/v1/forms/generate'], ['POST', `/api/v1/forms/${formId}/send`],
        ['POST', '/api/v1/webhooks'], ['PATCH', `/api/v1/webhooks/${whId}`], ['PATCH', `/api/v1/templates/${templateId}`],
      ];
      for (const [method, url] of targets) {
        for (const payload of [deep, `{"prefill":${deep}}`, `{"template_id":"${templateId}","prefill":{"a":${deep}}}`, `{"metadata":{"k":${deep}}}`]) {
          const res = await h.request({ method, url, as: h.actors.aTest, payload, headers: { 'content-type': 'application/json' } });
          assert.equal(res.status, 400, `${method} ${url}: ${res.body.slice(0, 200)}`);
          assert.equal(errorOf(res).type, 'invalid_request_error');
        }
      }
      // A NUL deep inside is still found, and named by its pointer.
      const nulDeep = `{"template_id":"${templateId}","metadata":{"k":${'['.repeat(50_000)}"x\\u0000"${']'.repeat(50_000)}}}`;
      const res = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, payload: nulDeep, headers: { 'content-type': 'application/json' } });
      const e = expectError(res, 400, 'parameter_invalid');
      assert.match(e.message, /NUL/);
    });

    it('2: the presigned file token is compared on its canonical text: every other spelling → 404', async () => {
      const formId = await newForm();
      const sent = await post(`/api/v1/forms/${formId}/send`, { recipients: [{ channel: 'email', email: 'a@example.com' }] });
      const rcp = sent.json<{ recipients: Array<{ id: string }> }>().recipients.map((r) => r.id);
      await h.deps.database.db.updateTable('recipients').set({ status: 'signed', signed_at: new Date().toISOString() }).where('form_id', '=', formId).execute();
      assert.equal(await recordSealedForm(h.deps.domain, h.actors.aTest.partition, formId, (await makeSampleTemplatePdf()).pdf, rcp), true);
      const location = String((await h.request({ url: `/api/v1/forms/${formId}/signed-pdf`, as: h.actors.aTest })).headers['location']);
      const token = location.slice(location.indexOf('/api/v1/files/pdf/') + '/api/v1/files/pdf/'.length);
      assert.equal((await h.request({ url: `/api/v1/files/pdf/${token}` })).status, 200, 'the token as issued is served');
      const [body, mac] = token.split('.') as [string, string];
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      // The last of the 22 characters carries 2 bits of the tag: 16 of its 64 values decoded to the same bytes.
      const lastVariants = [...alphabet].filter((c) => c !== mac.at(-1)).map((c) => `${body}.${mac.slice(0, -1)}${c}`);
      const spellings = [...lastVariants, `${token}=`, `${token}==`, `${body}.${mac.slice(0, 5)}*${mac.slice(5)}`, `${body}.${mac.slice(0, 5)}%20${mac.slice(5)}`, `${body}.${mac}%20`, `0${body}.${mac}`];
      let served = 0;
      for (const bad of spellings) {
        const r = await h.request({ url: `/api/v1/files/pdf/${bad}` });
        if (r.status === 200) served++;
        else expectError(r, 404, 'resource_not_found');
      }
      assert.equal(served, 0, `${served} of ${spellings.length} altered spellings were served`);
    });

    it('4: a recipient `signer` above 100 (the most recipients a form has) → 400 naming it', async () => {
      const formId = await newForm();
      for (const signer of [1_000_000_000, 101]) {
        const e = expectError(await post(`/api/v1/forms/${formId}/send`, { recipients: [{ channel: 'email', email: 'a@example.com', signer }] }), 400, 'parameter_invalid', 'recipients[0].signer');
        assert.match(e.message, /100/);
      }
      const ok = await post(`/api/v1/forms/${formId}/send`, { recipients: [{ channel: 'email', email: 'a@example.com', signer: 100 }] });
      assert.equal(ok.status, 200, ok.body);
      assert.equal(ok.json<{ recipients: Array<{ signer: number }> }>().recipients[0]!.signer, 100);
    });

    it('5: an SMS phone with CR/LF (a header injection) → 400, never cut to the number', async () => {
      const formId = await newForm();
      for (const phone of ['+14155550100\r\nX-Injected: yes', '+14155550100\n', '+1415555\r0100', '+14155550100 ext<b>']) {
        expectError(await post(`/api/v1/forms/${formId}/send`, { recipients: [{ channel: 'sms', phone }] }), 400, 'parameter_invalid', 'recipients[0].phone');
      }
      const form = (await h.request({ url: `/api/v1/forms/${formId}`, as: h.actors.aTest })).json<{ recipients: unknown[]; status: string }>();
      assert.deepEqual([form.status, form.recipients.length], ['draft', 0], 'nothing was sent');
      const ok = await post(`/api/v1/forms/${formId}/send`, { recipients: [{ channel: 'sms', phone: ' +1 (415) 555-0100 ' }] });
      assert.equal(ok.json<{ recipients: Array<{ phone: string }> }>().recipients[0]!.phone, '+14155550100');
    });

    it('6: one e-mail rule: an e-mail field refuses what a recipient refuses; a NUL in a template name is refused on upload as on PATCH', async () => {
      for (const email of ['<script>@x.com', '<a@probe.test>', 'a b@x.com', 'a@b@x.com', 'a,b@x.com']) {
        const prefill = await post('/api/v1/forms', { template_id: templateId, prefill: { email } });
        const e = expectError(prefill, 400, 'parameter_invalid', 'prefill.email');
        assert.match(e.message, /e-mail address/);
        const formId = await newForm();
        expectError(await post(`/api/v1/forms/${formId}/send`, { recipients: [{ channel: 'email', email }] }), 400, 'parameter_invalid');
      }
      assert.equal((await post('/api/v1/forms', { template_id: templateId, prefill: { email: 'o.brien+x@mail.example.co.uk' } })).status, 201);

      const pdf = Buffer.from((await makeSampleTemplatePdf()).pdf);
      const upload = (parts: Parameters<typeof multipart>[0]) => {
        const m = multipart(parts);
        return h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
      };
      const viaUpload = expectError(await upload([{ name: 'file', value: pdf, filename: 'a.pdf' }, { name: 'name', value: 'Lease\u0000x' }]), 400, 'parameter_invalid', 'name');
      const viaPatch = expectError(await h.request({ method: 'PATCH', url: `/api/v1/templates/${templateId}`, as: h.actors.aTest, json: { name: 'Lease\u0000x' } }), 400, 'parameter_invalid', 'name');
      for (const e of [viaUpload, viaPatch]) assert.match(e.message, /NUL/);
      expectError(await upload([{ name: 'file', value: pdf, filename: 'a.pdf' }, { name: 'fields', value: '[{"name":"a\\u0000"}]' }]), 400, 'parameter_invalid', 'fields');
      const list = (await h.request({ url: '/api/v1/templates', as: h.actors.aTest })).json<{ data: Array<{ name: string }> }>().data;
      assert.ok(!list.some((t) => t.name.includes('\u0000')));
    });

    it('7: rotate-secret refuses a body ({"x":1} → 400 parameter_unknown) and rotates nothing; none or {} rotate', async () => {
      const wh = (await post('/api/v1/webhooks', { url: 'https://hooks.example.com/r', events: ['form.sent'] })).json<{ id: string; signing_secret: string }>();
      expectError(await post(`/api/v1/webhooks/${wh.id}/rotate-secret`, { x: 1 }), 400, 'parameter_unknown', 'x');
      expectError(await post(`/api/v1/webhooks/${wh.id}/rotate-secret`, [1]), 400, 'parameter_unknown');
      const row = await h.deps.database.db.selectFrom('webhooks').selectAll().where('id', '=', wh.id).executeTakeFirstOrThrow();
      const none = await h.request({ method: 'POST', url: `/api/v1/webhooks/${wh.id}/rotate-secret`, as: h.actors.aTest });
      assert.equal(none.status, 200, none.body);
      const empty = await post(`/api/v1/webhooks/${wh.id}/rotate-secret`, {});
      assert.equal(empty.status, 200, empty.body);
      assert.notEqual(none.json<{ signing_secret: string }>().signing_secret, wh.signing_secret);
      assert.ok(row, 'the webhook row was read before the rotations');
    });

    it('10: X-RateLimit-* on 401, 402, 404 route_not_found and 405: the per-address window, counting down', async () => {
      const cases: Array<[TestResponse, number]> = [
        [await h.request({ url: '/api/v1/templates' }), 401],
        [await h.request({ url: '/api/v1/templates', headers: { authorization: `Bearer fk_test_${'0'.repeat(32)}` } }), 401],
        [await h.request({ url: '/api/v1/templates', as: h.actors.cLive }), 402],
        [await h.request({ url: '/api/v1/no-such-thing', as: h.actors.aTest }), 404],
        [await h.request({ method: 'DELETE', url: '/api/v1/templates', as: h.actors.aTest }), 405],
      ];
      const windowOnly = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-window'];
      let before = Infinity;
      for (const [res, status] of cases) {
        assert.equal(res.status, status, res.body);
        assert.deepEqual(limitHeaders(res), windowOnly, `${status}: ${JSON.stringify(res.headers)}`);
        assert.equal(res.headers['x-ratelimit-limit'], '600');
        assert.equal(res.headers['x-ratelimit-window'], '60');
        assert.ok(Number(res.headers['x-ratelimit-reset']) > Date.now() / 1000 - 1);
        const remaining = Number(res.headers['x-ratelimit-remaining']);
        assert.ok(remaining < before, 'each refused request counts in the one window of the address');
        before = remaining;
      }
      // An authenticated request keeps its account's headers, monthly ones included.
      const ok = await h.request({ url: '/api/v1/templates', as: h.actors.aTest });
      assert.equal(limitHeaders(ok).length, 7);
    });
  });
}

describe('the per-address window refuses once full (429 rate_limited with Retry-After)', () => {
  let h: Harness;
  before(async () => {
    // A clock that stands still in mid-window: on a loaded machine the 600 requests could otherwise
    // straddle a window's edge, and the 600th would see 1 left.
    h = await createHarness('sqlite', { clock: new FakeClock(Date.parse('2026-03-02T10:00:20.000Z')) });
  });
  after(() => h.close());
  it('600 unauthenticated requests pass as 401, the 601st is 429', async () => {
    let last: TestResponse | undefined;
    for (let i = 0; i < 600; i++) {
      last = await h.request({ url: '/api/v1/templates' });
      assert.equal(last.status, 401);
    }
    assert.equal(last!.headers['x-ratelimit-remaining'], '0');
    const refused = await h.request({ url: '/api/v1/templates', headers: { authorization: `Bearer fk_test_${'1'.repeat(32)}` } });
    expectError(refused, 429, 'rate_limited');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    // A valid key is counted against its account, not the address: it still passes.
    assert.equal((await h.request({ url: '/api/v1/templates', as: h.actors.aTest })).status, 200);
  });
});

describe('8: CONNECT and other odd methods get an answer with a status and Service-Request-Id', () => {
  let h: Harness;
  let port: number;
  before(async () => {
    h = await createHarness('sqlite');
    port = await listen(h.app);
  });
  after(() => h.close());

  it('CONNECT → 405 method_not_allowed with a request id, the connection closed', async () => {
    for (const target of ['example.com:443', '/api/v1/templates']) {
      const r = await rawExchange(port, async (s) => {
        s.write(`CONNECT ${target} HTTP/1.1\r\nHost: example.com:443\r\n\r\n`);
      });
      assert.match(r.head, /^HTTP\/1\.1 405 /, r.head);
      const id = /\r\nService-Request-Id: (\S+)\r\n/i.exec(r.head)?.[1];
      assert.match(String(id), REQUEST_ID);
      const e = (JSON.parse(r.body) as { error: { code: string; request_id: string } }).error;
      assert.deepEqual([e.code, e.request_id], ['method_not_allowed', id]);
    }
  });

  it('TRACE, PROPFIND, PURGE, SEARCH and an unknown method each get a status and a request id', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'PURGE', 'SEARCH', 'BREW', 'OPTIONS']) {
      const r = await rawExchange(port, async (s) => {
        s.write(`${method} /api/v1/templates HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      });
      assert.match(r.head, /^HTTP\/1\.1 [45]\d\d /, `${method}: ${r.head}`);
      assert.match(String(/\r\nService-Request-Id: (\S+)\r\n/i.exec(r.head)?.[1]), REQUEST_ID, `${method}: ${r.head}`);
    }
  });
});
