import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS } from '../../src/domain/idempotency/idempotency-slot.js';
import { sweepIdempotencyKeys } from '../../src/domain/idempotency/sweep-keys.js';
import { dayOf, monthOf } from '../../src/domain/limits/policy.js';
import { listOperations, loadOpenApiDocument } from '../../src/http/openapi.js';
import { buildApp } from '../../src/app.js';
import { ROUTES } from '../../src/http/routes/index.js';
import { assertPostIsWriteRoute, defineRoute, type RouteDef } from '../../src/http/routes/route.js';
import { createHarness, DIALECTS, errorOf, type Actor, type Harness, type TestResponse } from '../harness.js';
import { multipart } from '../shared/multipart.js';
import { seedTemplate } from '../shared/seed.js';

// Issue 26, item 1: Idempotency-Key on every POST of /api/v1, with Stripe's semantics.

const KEPT = ['content-type', 'x-service-prefill-unmatched'];

function assertSameAnswer(first: TestResponse, again: TestResponse): void {
  assert.equal(again.status, first.status);
  assert.ok(again.rawPayload.equals(first.rawPayload), `the same bytes:\n${first.body}\n${again.body}`);
  for (const name of KEPT) assert.equal(again.headers[name], first.headers[name], name);
  assert.equal(first.headers['idempotent-replayed'], undefined, 'the first answer is not a replay');
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.notEqual(again.headers['service-request-id'], first.headers['service-request-id'], 'every answer has its own request id');
}

describe('every POST of the API is a write route and documents Idempotency-Key', () => {
  it('routes, parameters, the replay header and the 409s', async () => {
    const doc = loadOpenApiDocument();
    const posts = listOperations(doc).filter((e) => e.method === 'POST' && !e.planned && !(Array.isArray(e.operation.security) && e.operation.security.length === 0));
    assert.ok(posts.length >= 7, `${posts.length} POST operations`);
    for (const { operation: op } of posts) {
      const def = ROUTES.find((r) => r.operationId === op.operationId);
      assert.ok(def?.write === true || def?.writesNothing === true, `${op.operationId} is declared with defineWriteRoute, so its idempotent answer is stored in the transaction of its write (or says writesNothing)`);
      assert.doesNotThrow(() => assertPostIsWriteRoute(def, 'POST', false));
      const params = JSON.stringify(op.parameters ?? []);
      assert.ok(params.includes('#/components/parameters/IdempotencyKey'), `${op.operationId} lists the Idempotency-Key parameter`);
      const ok = Object.entries(op.responses ?? {}).find(([code]) => code.startsWith('2'));
      assert.ok(JSON.stringify(ok?.[1]).includes('Idempotent-Replayed'), `${op.operationId}'s answer documents Idempotent-Replayed`);
      assert.ok(op.responses?.['409'], `${op.operationId} documents 409`);
    }
  });

  it('the route registry refuses an authenticated POST defined with plain defineRoute (the app does not start)', async () => {
    const plain = defineRoute({ operationId: 'voidForm', handler: () => async (_req, reply) => reply.send({}) });
    assert.throws(() => assertPostIsWriteRoute(plain, 'POST', false), /POST operation voidForm must be defined with defineWriteRoute/);
    // A read (GET) or a public route is not concerned; a POST that says it writes nothing is allowed.
    assert.doesNotThrow(() => assertPostIsWriteRoute(plain, 'GET', false));
    assert.doesNotThrow(() => assertPostIsWriteRoute(defineRoute({ operationId: 'voidForm', writesNothing: true, handler: () => async (_req, reply) => reply.send({}) }), 'POST', false));
    // And the app itself will not start with one.
    const h = await createHarness('sqlite');
    const i = ROUTES.findIndex((r) => r.operationId === 'voidForm');
    const saved = ROUTES[i]!;
    (ROUTES as RouteDef[])[i] = plain;
    try {
      await assert.rejects(buildApp(h.deps.http, { logger: false }), /POST operation voidForm must be defined with defineWriteRoute/);
    } finally {
      (ROUTES as RouteDef[])[i] = saved;
      await h.close();
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`Idempotency-Key (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    before(async () => {
      h = await createHarness(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
      templateId = await seedTemplate(h, h.actors.aTest.partition, 'Lease', new Date().toISOString());
    });
    after(() => h.close());

    const post = (url: string, json: unknown, key: string | undefined, as: Actor = h.actors.aTest) =>
      h.request({ method: 'POST', url, as, json, headers: key === undefined ? {} : { 'idempotency-key': key } });
    const formsOf = async (as: Actor) =>
      (await h.deps.database.db.selectFrom('forms').select('id').where('account_id', '=', as.partition.accountId).where('mode', '=', as.partition.mode).execute()).map((r) => r.id);

    it('the same key and body replay the stored answer byte for byte, and create nothing more', async () => {
      const body = { template_id: templateId, prefill: { full_name: 'Ada Lovelace', nickname: 'Ada' } };
      const before = (await formsOf(h.actors.aTest)).length;
      const first = await post('/api/v1/forms', body, 'replay-1');
      assert.equal(first.status, 201, first.body);
      assert.equal(first.headers['x-service-prefill-unmatched'], 'nickname');
      for (let i = 0; i < 3; i++) assertSameAnswer(first, await post('/api/v1/forms', body, 'replay-1'));
      assert.equal((await formsOf(h.actors.aTest)).length, before + 1, 'one form');
      // Without a key, each call creates a form (the contract's default).
      const a = await post('/api/v1/forms', body, undefined);
      const b = await post('/api/v1/forms', body, undefined);
      assert.notEqual(a.json<{ id: string }>().id, b.json<{ id: string }>().id);
    });

    it('the same key with another body, method or path answers 409 idempotency_key_reused', async () => {
      const first = await post('/api/v1/forms', { template_id: templateId }, 'reuse-1');
      assert.equal(first.status, 201);
      const other = await post('/api/v1/forms', { template_id: templateId, name: 'Other' }, 'reuse-1');
      assert.equal(other.status, 409);
      assert.deepEqual({ ...errorOf(other), message: undefined, request_id: undefined }, { type: 'conflict_error', code: 'idempotency_key_reused', param: 'Idempotency-Key', message: undefined, request_id: undefined });
      const elsewhere = await post(`/api/v1/forms/${first.json<{ id: string }>().id}/send`, { recipients: [{ channel: 'email', email: 'x@example.com' }] }, 'reuse-1');
      assert.equal(errorOf(elsewhere).code, 'idempotency_key_reused');
      // The stored answer is untouched.
      assertSameAnswer(first, await post('/api/v1/forms', { template_id: templateId }, 'reuse-1'));
    });

    it('keys are scoped to account and mode', async () => {
      const tB = await seedTemplate(h, h.actors.bTest.partition, 'B', new Date().toISOString());
      const inA = await post('/api/v1/forms', { template_id: templateId }, 'scoped-1');
      const inB = await post('/api/v1/forms', { template_id: tB }, 'scoped-1', h.actors.bTest);
      assert.equal(inA.status, 201);
      assert.equal(inB.status, 201, 'another account uses the same key freely');
      assert.equal(inB.headers['idempotent-replayed'], undefined);
      const live = await post('/api/v1/forms', { template_id: templateId }, 'scoped-1', h.actors.aLive);
      assert.equal(live.status, 404, 'the live partition has no such template: its own answer, not the test one');
    });

    it('a malformed key answers 400 parameter_invalid and runs nothing', async () => {
      const before = (await formsOf(h.actors.aTest)).length;
      for (const key of ['', 'k'.repeat(256), 'clé']) {
        const res = await post('/api/v1/forms', { template_id: templateId }, key);
        assert.equal(res.status, 400, `${JSON.stringify(key)}: ${res.body}`);
        assert.equal(errorOf(res).code, 'parameter_invalid');
        assert.equal(errorOf(res).param, 'Idempotency-Key');
      }
      assert.equal((await post('/api/v1/forms', { template_id: templateId }, 'k'.repeat(255))).status, 201, '255 characters are allowed');
      assert.equal((await formsOf(h.actors.aTest)).length, before + 1);
    });

    it('a 4xx answer is stored and replayed (Stripe does); a 5xx is not, and releases the key', async () => {
      const form = (await post('/api/v1/forms', { template_id: templateId }, undefined)).json<{ id: string }>();
      const send = { recipients: [{ channel: 'email', email: 'grace@example.com' }] };
      assert.equal((await post(`/api/v1/forms/${form.id}/send`, send, 'send-1')).status, 200);
      const refused = await post(`/api/v1/forms/${form.id}/send`, send, 'send-2');
      assert.equal(errorOf(refused).code, 'form_already_sent');
      assertSameAnswer(refused, await post(`/api/v1/forms/${form.id}/send`, send, 'send-2'));
      // A domain 400 is stored too.
      const invalid = await post('/api/v1/forms', { template_id: templateId, prefill: { email: 'not an address' } }, 'bad-prefill');
      assert.equal(invalid.status, 400);
      assertSameAnswer(invalid, await post('/api/v1/forms', { template_id: templateId, prefill: { email: 'not an address' } }, 'bad-prefill'));

      // A 5xx: the template cache fails once. The retry with the same key runs and creates the form.
      const cache = h.deps.domain.templateCache;
      const get = cache.get.bind(cache);
      cache.get = () => {
        throw new Error('injected failure');
      };
      let failed: TestResponse;
      try {
        failed = await post('/api/v1/forms', { template_id: templateId }, 'five-hundred');
      } finally {
        cache.get = get;
      }
      assert.equal(failed.status, 500);
      const row = await h.deps.database.db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'five-hundred').executeTakeFirst();
      assert.equal(row, undefined, 'the key was released');
      const retried = await post('/api/v1/forms', { template_id: templateId }, 'five-hundred');
      assert.equal(retried.status, 201);
      assert.equal(retried.headers['idempotent-replayed'], undefined, 'it ran');
    });

    it('20 concurrent requests with one key: exactly one form; the others replay it or answer 409 in_use', async () => {
      const as = h.actors.bTest;
      const tB = await seedTemplate(h, as.partition, 'Concurrent', new Date().toISOString());
      const before = (await formsOf(as)).length;
      const body = { template_id: tB, prefill: { full_name: 'Edsger' } };
      const answers = await Promise.all(Array.from({ length: 20 }, () => post('/api/v1/forms', body, 'concurrent-1', as)));
      const created = answers.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
      assert.equal(created.length, 1, answers.map((r) => `${r.status} ${String(r.headers['idempotent-replayed'])}`).join(', '));
      for (const r of answers) {
        if (r === created[0]) continue;
        if (r.status === 409) assert.equal(errorOf(r).code, 'idempotency_key_in_use');
        else assertSameAnswer(created[0]!, r);
      }
      assert.equal((await formsOf(as)).length, before + 1, 'exactly one form');
      // Once it has answered, every retry replays it.
      assertSameAnswer(created[0]!, await post('/api/v1/forms', body, 'concurrent-1', as));
    });

    it('a replay is not counted again toward the monthly quota, nor in the dashboard\'s daily usage', async () => {
      const as = h.actors.aLive;
      const limits = h.deps.http.limits!;
      const calls = async () => {
        await limits.flush();
        const row = await h.deps.database.db.selectFrom('account_usage').select('calls').where('account_id', '=', as.partition.accountId).where('month', '=', monthOf(Date.now())).executeTakeFirst();
        return Number(row?.calls ?? 0);
      };
      const today = async () => {
        await limits.flush();
        const row = await h.deps.database.db.selectFrom('account_usage_daily').select('calls').where('account_id', '=', as.partition.accountId).where('day', '=', dayOf(Date.now())).executeTakeFirst();
        return Number(row?.calls ?? 0);
      };
      const startDay = await today();
      const webhook = { url: 'http://127.0.0.1:9/formsign', events: ['form.created'] };
      const start = await calls();
      const first = await post('/api/v1/webhooks', webhook, 'quota-1', as);
      assert.equal(first.status, 201, first.body);
      for (let i = 0; i < 4; i++) assertSameAnswer(first, await post('/api/v1/webhooks', webhook, 'quota-1', as));
      assert.equal(await calls(), start + 1, 'five calls with one key count once');
      assert.equal(await today(), startDay + 1, 'and once in the day\'s usage, as in the month\'s');
      // A replay after the first call was written (another flush between them) is taken back too.
      assertSameAnswer(first, await post('/api/v1/webhooks', webhook, 'quota-1', as));
      assert.deepEqual([await calls(), await today()], [start + 1, startDay + 1]);
      // The replay carries the signing secret shown once: it is the first answer, byte for byte.
      assert.match(first.json<{ signing_secret: string }>().signing_secret, /^whsec_/);
    });

    it('an upload is fingerprinted by its parts, not its multipart boundary', async () => {
      const pdf = fs.readFileSync(new URL('../fixtures/pdfs/openoffice_form_example.pdf', import.meta.url));
      const upload = (name: string) => {
        const m = multipart([{ name: 'file', value: pdf, filename: 'form.pdf' }, { name: 'name', value: name }]);
        return h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: { ...m.headers, 'idempotency-key': 'upload-1' } });
      };
      const first = await upload('Uploaded once');
      assert.equal(first.status, 201, first.body.slice(0, 300));
      assertSameAnswer(first, await upload('Uploaded once'));
      assert.equal(errorOf(await upload('Another name')).code, 'idempotency_key_reused');
      const named = await h.deps.database.db.selectFrom('templates').select('id').where('name', '=', 'Uploaded once').execute();
      assert.equal(named.length, 1, 'one template');
    });

    it('keys are kept 24 hours: an expired key counts as absent, and the sweep deletes it', async () => {
      const first = await post('/api/v1/forms', { template_id: templateId }, 'old-1');
      assert.equal(first.status, 201);
      const dayAgo = new Date(Date.now() - IDEMPOTENCY_RETENTION_MS - 60_000).toISOString();
      await h.deps.database.transact((trx) => trx.updateTable('idempotency_keys').set({ created_at: dayAgo }).where('key', '=', 'old-1').execute());
      const again = await post('/api/v1/forms', { template_id: templateId, name: 'A new request' }, 'old-1');
      assert.equal(again.status, 201, 'runs as a new request');
      assert.equal(again.json<{ name: string }>().name, 'A new request');
      await h.deps.database.transact((trx) => trx.updateTable('idempotency_keys').set({ created_at: dayAgo }).where('key', '=', 'old-1').execute());
      assert.ok((await sweepIdempotencyKeys(h.deps.domain)) >= 1);
      assert.equal(await h.deps.database.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'old-1').executeTakeFirst(), undefined);
    });

    it('a claim left behind by a dead process is taken over after its lease (no answer means no write)', async () => {
      const p = h.actors.aTest.partition;
      const old = new Date(Date.now() - IDEMPOTENCY_LEASE_MS - 1000).toISOString();
      const fresh = new Date().toISOString();
      const hashOf = async (key: string) => (await h.deps.database.db.selectFrom('idempotency_keys').select('request_hash').where('key', '=', key).executeTakeFirstOrThrow()).request_hash;
      // The fingerprint of the request below, recorded by a first run of it.
      const body = { template_id: templateId, name: 'Lease' };
      await post('/api/v1/forms', body, 'lease-probe');
      const requestHash = await hashOf('lease-probe');
      for (const [key, lockedAt, expected] of [['lease-live', fresh, 409], ['lease-dead', old, 201]] as const) {
        await h.deps.database.transact((trx) => trx.insertInto('idempotency_keys').values({
          account_id: p.accountId, mode: p.mode, key, request_hash: requestHash, status: 'in_flight', owner: 'req_dead', locked_at: lockedAt,
          response_status: null, response_headers: null, response_body: null, created_at: lockedAt,
        }).execute());
        const res = await post('/api/v1/forms', body, key);
        assert.equal(res.status, expected, `${key}: ${res.body}`);
        if (expected === 409) assert.equal(errorOf(res).code, 'idempotency_key_in_use');
      }
    });
  });
}
