import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';

// Embedded signing (issue 26, item 3): the allowed origins over the API, and what the signing page
// sends because of them — frame-ancestors, no X-Frame-Options, the bridge and its context — per partition.

interface Origin { object: string; origin: string; mode: string; created_at: string }

for (const dialect of DIALECTS) {
  describe(`embed origins (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    before(async () => {
      h = await createHarness(dialect);
      templateId = await seedTemplate(h, h.actors.aTest.partition, 'Embed', '2026-01-01T00:00:00.000Z');
    });
    after(() => h.close());

    const origins = (as = h.actors.aTest) => h.request({ url: '/api/v1/embed/origins', as });
    const add = (origin: unknown, as = h.actors.aTest) => h.request({ method: 'POST', url: '/api/v1/embed/origins', as, json: { origin } });
    const remove = (origin: string, as = h.actors.aTest) => h.request({ method: 'DELETE', url: `/api/v1/embed/origins?origin=${encodeURIComponent(origin)}`, as });
    const signingPage = async () => {
      const form = (await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } })).json<{ id: string }>();
      const sent = (await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as: h.actors.aTest, json: { recipients: [{ channel: 'email', email: 'e@example.com' }] } })).json<{ recipients: Array<{ id: string; signing_url: string }> }>();
      const r = sent.recipients[0]!;
      const page = await h.app.inject({ url: new URL(r.signing_url).pathname });
      assert.equal(page.statusCode, 200);
      return { page, formId: form.id, recipientId: r.id };
    };

    it('none by default: an empty list, and the signing page cannot be framed (frame-ancestors none, X-Frame-Options DENY, no bridge)', async () => {
      assert.deepEqual((await origins()).json(), { object: 'list', data: [], has_more: false });
      const { page } = await signingPage();
      assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
      assert.equal(page.headers['x-frame-options'], 'DENY');
      assert.ok(!page.body.includes('formsign-embed'));
    });

    it('origins are validated and stored as browsers write them; the same origin twice is one (201 then 200)', async () => {
      for (const bad of ['http://app.example.com', 'https://app.example.com/path', 'https://*.example.com', 'ftp://files.example.com', 'https://user:pw@app.example.com', "https://a.example.com 'unsafe-inline'", 'https://a.example.com;script-src *', 'app.example.com', 'javascript:alert(1)']) {
        const res = await add(bad);
        assert.deepEqual([res.status, errorOf(res).code, errorOf(res).param], [400, 'parameter_invalid', 'origin'], bad);
      }
      const first = await add('HTTPS://App.Example.com:443');
      assert.equal(first.status, 201, first.body);
      const o = first.json<Origin>();
      assert.deepEqual([o.object, o.origin, o.mode], ['embed_origin', 'https://app.example.com', 'test']);
      const again = await add('https://app.example.com');
      assert.equal(again.status, 200);
      assert.deepEqual(again.json(), o);
      assert.equal((await add('http://localhost:5173')).status, 201);
      assert.equal((await add('http://127.0.0.1:8080')).status, 201);
      const list = (await origins()).json<{ data: Origin[] }>().data.map((x) => x.origin).sort();
      assert.deepEqual(list, ['http://127.0.0.1:8080', 'http://localhost:5173', 'https://app.example.com']);
      // Another partition sees none of them.
      assert.deepEqual((await origins(h.actors.aLive)).json<{ data: unknown[] }>().data, []);
      assert.deepEqual((await origins(h.actors.bTest)).json<{ data: unknown[] }>().data, []);
    });

    it('the signing page then names exactly them in frame-ancestors, drops X-Frame-Options, and carries the bridge with its form and recipient', async () => {
      const { page, formId, recipientId } = await signingPage();
      const csp = String(page.headers['content-security-policy']);
      const ancestors = /frame-ancestors ([^;]+)/.exec(csp)?.[1]?.split(' ').sort();
      assert.deepEqual(ancestors, ['http://127.0.0.1:8080', 'http://localhost:5173', 'https://app.example.com']);
      assert.match(csp, /default-src 'none'/);
      assert.equal(page.headers['x-frame-options'], undefined);
      const meta = /<meta name="formsign-embed" content="([^"]+)">/.exec(page.body)?.[1];
      assert.ok(meta, 'the page carries its embedding context');
      const context = JSON.parse(meta.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')) as { origins: string[]; form_id: string; recipient_id: string; state: string };
      assert.deepEqual([context.form_id, context.recipient_id, context.state, context.origins.length], [formId, recipientId, 'open', 3]);
      const bridge = /<script type="module" src="(\/assets\/sign\/embed-bridge\.[0-9a-f]+\.js)">/.exec(page.body)?.[1];
      assert.ok(bridge);
      const js = await h.app.inject({ url: bridge });
      assert.equal(js.statusCode, 200);
      assert.match(js.body, /postMessage\(message, origin\)/);
      assert.ok(!js.body.includes("'*'"), 'never posted to any origin');
    });

    it('the waiting, declined, voided and expired pages carry the same embed head (frame-ancestors, the bridge, their state)', async () => {
      const send = async (body: Record<string, unknown>) => {
        const form = (await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } })).json<{ id: string }>();
        const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as: h.actors.aTest, json: body });
        assert.equal(sent.status, 200, sent.body);
        return { formId: form.id, recipients: sent.json<{ recipients: Array<{ id: string; signing_url: string }> }>().recipients };
      };
      const one = { recipients: [{ channel: 'email', email: 'state@example.com' }] };
      const waiting = await send({ signing_order: 'sequential', recipients: [{ channel: 'email', email: 'first@example.com' }, { channel: 'email', email: 'second@example.com' }] });
      const declined = await send(one);
      const declinedPath = new URL(declined.recipients[0]!.signing_url).pathname;
      const decline = await h.app.inject({ method: 'POST', url: `${declinedPath}/decline`, headers: { 'content-type': 'application/json', 'x-formsign-signing': '1' }, payload: '{}' });
      assert.equal(decline.statusCode, 200, decline.body);
      const voided = await send(one);
      assert.equal((await h.request({ method: 'POST', url: `/api/v1/forms/${voided.formId}/void`, as: h.actors.aTest })).status, 200);
      const expired = await send(one);
      assert.equal((await h.request({ method: 'POST', url: `/api/v1/forms/${expired.formId}/expire`, as: h.actors.aTest })).status, 200);
      for (const [state, f, r, status] of [['waiting', waiting, 1, 409], ['declined', declined, 0, 410], ['voided', voided, 0, 410], ['expired', expired, 0, 410]] as const) {
        const recipient = f.recipients[r]!;
        const page = await h.app.inject({ url: new URL(recipient.signing_url).pathname });
        assert.equal(page.statusCode, status, `${state}: ${page.body.slice(0, 200)}`);
        const ancestors = /frame-ancestors ([^;]+)/.exec(String(page.headers['content-security-policy']))?.[1]?.split(' ').sort();
        assert.deepEqual(ancestors, ['http://127.0.0.1:8080', 'http://localhost:5173', 'https://app.example.com'], state);
        assert.equal(page.headers['x-frame-options'], undefined, state);
        const meta = /<meta name="formsign-embed" content="([^"]+)">/.exec(page.body)?.[1];
        assert.ok(meta, `the ${state} page carries its embedding context`);
        const context = JSON.parse(meta.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')) as { form_id: string; recipient_id: string; state: string };
        assert.deepEqual([context.form_id, context.recipient_id, context.state], [f.formId, recipient.id, state]);
        assert.match(page.body, /<script type="module" src="\/assets\/sign\/embed-bridge\.[0-9a-f]+\.js">/, state);
      }
      // The bridge tells the host each of these states by name.
      const bridge = /src="(\/assets\/sign\/embed-bridge\.[0-9a-f]+\.js)"/.exec((await h.app.inject({ url: new URL(voided.recipients[0]!.signing_url).pathname })).body)![1]!;
      const js = (await h.app.inject({ url: bridge })).body;
      // Compiled from TypeScript (esbuild writes double quotes).
      for (const type of ['formsign:waiting', 'formsign:declined', 'formsign:voided', 'formsign:expired']) assert.ok(js.includes(`'${type}'`) || js.includes(`"${type}"`), type);
      // Another account's pages, with no allowed origin, still carry none of it.
      const tB = await seedTemplate(h, h.actors.bTest.partition, 'B', '2026-01-01T00:00:00.000Z');
      const formB = (await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.bTest, json: { template_id: tB } })).json<{ id: string }>();
      const sentB = (await h.request({ method: 'POST', url: `/api/v1/forms/${formB.id}/send`, as: h.actors.bTest, json: one })).json<{ recipients: Array<{ signing_url: string }> }>();
      assert.equal((await h.request({ method: 'POST', url: `/api/v1/forms/${formB.id}/void`, as: h.actors.bTest })).status, 200);
      const pageB = await h.app.inject({ url: new URL(sentB.recipients[0]!.signing_url).pathname });
      assert.equal(pageB.statusCode, 410);
      assert.match(String(pageB.headers['content-security-policy']), /frame-ancestors 'none'/);
      assert.equal(pageB.headers['x-frame-options'], 'DENY');
      assert.ok(!pageB.body.includes('formsign-embed'));
    });

    it('DELETE removes one (any spelling), a missing one is 404; a body on DELETE or an unknown field is refused', async () => {
      const res = await remove('https://APP.example.com');
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(res.json(), { object: 'embed_origin', origin: 'https://app.example.com', deleted: true });
      const again = await remove('https://app.example.com');
      assert.deepEqual([again.status, errorOf(again).code], [404, 'resource_not_found']);
      assert.equal((await origins()).json<{ data: unknown[] }>().data.length, 2);
      const unknown = await h.request({ method: 'POST', url: '/api/v1/embed/origins', as: h.actors.aTest, json: { origin: 'https://x.example.com', x: 1 } });
      assert.deepEqual([unknown.status, errorOf(unknown).code], [400, 'parameter_unknown']);
      const missing = await h.request({ method: 'DELETE', url: '/api/v1/embed/origins', as: h.actors.aTest });
      assert.deepEqual([missing.status, errorOf(missing).code], [400, 'parameter_missing']);
    });

    it('at most 20 per partition', async () => {
      for (let i = 0; i < 18; i++) assert.equal((await add(`https://s${i}.example.com`)).status, 201);
      const over = await add('https://one-too-many.example.com');
      assert.deepEqual([over.status, errorOf(over).code], [400, 'parameter_invalid']);
      assert.match(errorOf(over).message, /20/);
      assert.equal((await origins()).json<{ data: unknown[] }>().data.length, 20);
    });

    it('/embed.js: the component as one script, loadable from any origin', async () => {
      const res = await h.app.inject({ url: '/embed.js' });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/javascript/);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
      assert.match(res.body, /customElements\.define/);
      assert.match(res.body, /formsign-signing/);
      assert.ok(!/\bimport\s*[{(*]|\brequire\(/.test(res.body), 'no dependencies to load');
      const again = await h.app.inject({ url: '/embed.js', headers: { 'if-none-match': String(res.headers['etag']) } });
      assert.equal(again.statusCode, 304);
    });
  });
}
