import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';

interface Webhook {
  object: string;
  id: string;
  url: string;
  events: string[];
  status: string;
  mode: string;
  description: string | null;
  created_at: string;
  signing_secret?: string;
}

for (const dialect of DIALECTS) {
  describe(`webhooks API (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect);
    });
    after(() => h.close());

    const create = (body: unknown, as = h.actors.aTest) => h.request({ method: 'POST', url: '/api/v1/webhooks', as, json: body });

    it('creates a webhook: 201, enabled, with a whsec_ secret of 32 random bytes shown only then', async () => {
      const res = await create({ url: 'https://hooks.example.com/formsign', events: ['form.signed', 'form.created'], description: 'CRM' });
      assert.equal(res.status, 201);
      const w = res.json<Webhook>();
      assert.match(w.id, /^wh_[0-9A-Za-z]{24}$/);
      assert.deepEqual([w.object, w.url, w.status, w.mode, w.description], ['webhook', 'https://hooks.example.com/formsign', 'enabled', 'test', 'CRM']);
      assert.deepEqual(w.events, ['form.signed', 'form.created']);
      assert.match(w.signing_secret!, /^whsec_[0-9a-f]{64}$/);
      const other = (await create({ url: 'https://hooks.example.com/2', events: ['form.sent'] })).json<Webhook>();
      assert.notEqual(other.signing_secret, w.signing_secret);
      assert.equal(other.description, null);

      const got = await h.request({ url: `/api/v1/webhooks/${w.id}`, as: h.actors.aTest });
      assert.equal(got.status, 200);
      assert.equal(got.json<Webhook>().signing_secret, undefined);
      assert.ok(!got.body.includes('whsec_'), 'get never shows the secret');
      const list = await h.request({ url: '/api/v1/webhooks', as: h.actors.aTest });
      assert.ok(!list.body.includes('whsec_'), 'list never shows the secret');
      assert.deepEqual(
        list.json<{ data: Webhook[] }>().data.map((x) => x.id),
        [other.id, w.id],
        'newest first',
      );
      const page1 = await h.request({ url: '/api/v1/webhooks?limit=1', as: h.actors.aTest });
      assert.equal(page1.json<{ has_more: boolean }>().has_more, true);
      const page2 = await h.request({ url: `/api/v1/webhooks?limit=1&starting_after=${other.id}`, as: h.actors.aTest });
      assert.deepEqual(page2.json<{ data: Webhook[]; has_more: boolean }>().data.map((x) => x.id), [w.id]);
    });

    it('refuses bad URLs with 400 parameter_invalid, param url', async () => {
      const bad = [
        'not a url',
        '/relative/path',
        'ftp://example.com/hook',
        'https://user:pass@example.com/hook',
        'https://example.com/hook#frag',
        `https://example.com/${'a'.repeat(2048)}`,
        'http://127.0.0.1/hook',
        'http://localhost:3000/hook',
        'http://[::1]/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://10.0.0.1/',
        'http://192.168.1.1/',
        'http://172.16.0.1/',
        'http://100.64.0.1/',
        'http://0.0.0.0/',
        'http://224.0.0.1/',
        'http://240.0.0.1/',
        'http://2130706433/',
        'http://0x7f.0.0.1/',
        'http://0177.0.0.1/',
        'http://[::ffff:127.0.0.1]/',
        'http://[::ffff:a9fe:a9fe]/',
        'http://[fe80::1]/',
        'http://[fd00::1]/',
      ];
      for (const url of bad) {
        const res = await create({ url, events: ['form.signed'] });
        assert.equal(res.status, 400, `${url} → ${res.status} ${res.body}`);
        const e = errorOf(res);
        assert.equal(e.code, 'parameter_invalid', url);
        assert.equal(e.param, 'url', url);
      }
      const list = await h.request({ url: '/api/v1/webhooks', as: h.actors.bTest });
      assert.equal(list.json<{ data: unknown[] }>().data.length, 0, 'nothing was created');
    });

    it('refuses empty, unknown and duplicated event types, and unknown fields', async () => {
      for (const events of [[], ['form.exploded'], ['form.sent', 'form.sent']]) {
        const res = await create({ url: 'https://example.com/h', events });
        assert.equal(res.status, 400, JSON.stringify(events));
        assert.match(errorOf(res).param ?? '', /^events(\[\d+\])?$/);
      }
      const unknown = await create({ url: 'https://example.com/h', events: ['form.sent'], secret: 'mine' });
      assert.equal(unknown.status, 400);
      assert.equal(errorOf(unknown).code, 'parameter_unknown');
      const missing = await create({ events: ['form.sent'] });
      assert.equal(errorOf(missing).code, 'parameter_missing');
      assert.equal(errorOf(missing).param, 'url');
    });

    it('an account has at most 16 webhooks per mode: the 17th is refused until one is deleted', async () => {
      const as = h.actors.bTest;
      const made: string[] = [];
      for (let i = 0; i < 16; i++) {
        const res = await create({ url: `https://hooks.example.com/cap/${i}`, events: ['form.signed'] }, as);
        assert.equal(res.status, 201, res.body);
        made.push(res.json<{ id: string }>().id);
      }
      const over = await create({ url: 'https://hooks.example.com/cap/16', events: ['form.signed'] }, as);
      assert.equal(over.status, 400);
      assert.equal(over.json<{ error: { code: string; message: string } }>().error.code, 'parameter_invalid');
      assert.match(over.json<{ error: { message: string } }>().error.message, /at most 16 webhooks in test mode/);
      assert.equal((await h.request({ method: 'DELETE', url: `/api/v1/webhooks/${made[0]}`, as })).status, 200);
      assert.equal((await create({ url: 'https://hooks.example.com/cap/16', events: ['form.signed'] }, as)).status, 201);
    });

    it('PATCH changes only the given fields; DELETE makes it 404', async () => {
      const w = (await create({ url: 'https://example.com/a', events: ['form.sent'], description: 'x' })).json<Webhook>();
      const patched = await h.request({ method: 'PATCH', url: `/api/v1/webhooks/${w.id}`, as: h.actors.aTest, json: { events: ['form.signed', 'form.expired'], status: 'disabled' } });
      assert.equal(patched.status, 200);
      const p = patched.json<Webhook>();
      assert.deepEqual([p.url, p.status, p.description, p.events], ['https://example.com/a', 'disabled', 'x', ['form.signed', 'form.expired']]);
      const cleared = (await h.request({ method: 'PATCH', url: `/api/v1/webhooks/${w.id}`, as: h.actors.aTest, json: { description: null, url: 'https://example.org/b', status: 'enabled' } })).json<Webhook>();
      assert.deepEqual([cleared.url, cleared.status, cleared.description], ['https://example.org/b', 'enabled', null]);
      const badUrl = await h.request({ method: 'PATCH', url: `/api/v1/webhooks/${w.id}`, as: h.actors.aTest, json: { url: 'http://127.0.0.1:9/' } });
      assert.equal(errorOf(badUrl).param, 'url');

      const del = await h.request({ method: 'DELETE', url: `/api/v1/webhooks/${w.id}`, as: h.actors.aTest });
      assert.equal(del.status, 200);
      assert.deepEqual(del.json(), { object: 'webhook', id: w.id, deleted: true });
      for (const [method, url] of [
        ['GET', `/api/v1/webhooks/${w.id}`],
        ['DELETE', `/api/v1/webhooks/${w.id}`],
        ['PATCH', `/api/v1/webhooks/${w.id}`],
        ['POST', `/api/v1/webhooks/${w.id}/rotate-secret`],
        ['GET', `/api/v1/webhooks/${w.id}/deliveries`],
      ] as const) {
        const res = await h.request({ method, url, as: h.actors.aTest, ...(method === 'PATCH' ? { json: { description: 'y' } } : {}) });
        assert.equal(res.status, 404, `${method} ${url}`);
        assert.equal(errorOf(res).code, 'resource_not_found');
      }
    });

    it("the other partition's webhooks are not found (test vs live, another account)", async () => {
      const w = (await create({ url: 'https://example.com/p', events: ['form.sent'] })).json<Webhook>();
      for (const as of [h.actors.aLive, h.actors.bTest]) {
        for (const [method, url] of [
          ['GET', `/api/v1/webhooks/${w.id}`],
          ['DELETE', `/api/v1/webhooks/${w.id}`],
          ['POST', `/api/v1/webhooks/${w.id}/rotate-secret`],
          ['GET', `/api/v1/webhooks/${w.id}/deliveries`],
          ['POST', `/api/v1/webhooks/${w.id}/deliveries/whd_000000000000000000000000/retry`],
        ] as const) {
          const res = await h.request({ method, url, as });
          assert.equal(res.status, 404, `${method} ${url} as ${as.partition.mode}`);
        }
        const list = await h.request({ url: '/api/v1/webhooks', as });
        assert.ok(!list.body.includes(w.id));
      }
      assert.equal((await h.request({ url: `/api/v1/webhooks/${w.id}`, as: h.actors.aTest })).status, 200, 'still there for its own partition');
    });

    it('rotate-secret returns a new secret once; get still hides it', async () => {
      const w = (await create({ url: 'https://example.com/r', events: ['form.sent'] })).json<Webhook>();
      const rotated = await h.request({ method: 'POST', url: `/api/v1/webhooks/${w.id}/rotate-secret`, as: h.actors.aTest });
      assert.equal(rotated.status, 200);
      const r = rotated.json<Webhook>();
      assert.match(r.signing_secret!, /^whsec_[0-9a-f]{64}$/);
      assert.notEqual(r.signing_secret, w.signing_secret);
      const row = await h.deps.database.db.selectFrom('webhooks').selectAll().where('id', '=', w.id).executeTakeFirstOrThrow();
      assert.equal(row.secret, r.signing_secret);
      assert.equal(row.previous_secret, w.signing_secret);
      assert.ok(Date.parse(row.previous_secret_until!) - Date.now() > 23.9 * 3600_000, 'the old secret signs for 24 h');
      assert.ok(!(await h.request({ url: `/api/v1/webhooks/${w.id}`, as: h.actors.aTest })).body.includes('whsec_'));
    });
  });
}
