import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';
import { errorCode, signedUp, uploadedTemplate, type Visitor } from './support.js';

// Dashboard part 2 (issue 24) on both dialects: every new route needs a session (401) and, for a
// change, the session's CSRF token (403); another account's form, webhook, delivery and message are
// not found (404); the dev outbox shows only the account's own mail. Also what the pages rely on:
// the API's validation, the search by name, ETags for live status, the usage view.

interface Form { id: string; name: string; status: string; fields: Array<{ name: string; value?: unknown }>; recipients: Array<{ email?: string; signing_url: string; status: string }> }
interface Outbox { data: Array<{ id: string; to: string; form_id: string; signing_url: string; has_html: boolean; channel: string }>; channels: { email: boolean; sms: boolean } }

for (const dialect of DIALECTS) {
  describe(`dashboard forms, webhooks, outbox, usage (${dialect})`, () => {
    let h: Harness;
    let a: Visitor & { accountId: string };
    let b: Visitor & { accountId: string };
    let templateId: string;
    let form: Form;
    let webhookId: string;
    let deliveryId: string;
    let messageId: string;

    before(async () => {
      h = await createHarness(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
      a = await signedUp(h);
      b = await signedUp(h);
      templateId = await uploadedTemplate(a);
      const created = await a.call('POST', '/dashboard/api/test/forms', { json: { template_id: templateId, name: 'Lease for Ada', prefill: { firstName: 'Ada', lastName: 'Lovelace', nope: 'x' } } });
      assert.equal(created.status, 201, created.body);
      assert.equal(created.headers['x-service-prefill-unmatched'], 'nope');
      const sent = await a.call('POST', `/dashboard/api/test/forms/${created.json<Form>().id}/send`, { json: { recipients: [{ email: 'ada@example.com', channel: 'email', name: 'Ada' }] } });
      assert.equal(sent.status, 200, sent.body);
      form = sent.json<Form>();
      const hook = await a.call('POST', '/dashboard/api/test/webhooks', { json: { url: 'http://127.0.0.1:9/hook', events: ['form.signed'] } });
      assert.equal(hook.status, 201, hook.body);
      webhookId = hook.json<{ id: string }>().id;
      const test = await a.call('POST', `/dashboard/api/test/webhooks/${webhookId}/test`);
      assert.equal(test.status, 200, test.body);
      deliveryId = test.json<{ id: string }>().id;
      const outbox = await a.call('GET', '/dashboard/api/test/outbox');
      assert.equal(outbox.status, 200, outbox.body);
      messageId = outbox.json<Outbox>().data[0]!.id;
    });
    after(() => h.close());

    const reads = () => [
      '/dashboard/api/test/forms',
      `/dashboard/api/test/forms/${form.id}`,
      `/dashboard/api/test/forms/${form.id}/events`,
      `/dashboard/api/test/forms/${form.id}/pdf`,
      `/dashboard/api/test/forms/${form.id}/signed-pdf`,
      '/dashboard/api/test/webhooks',
      `/dashboard/api/test/webhooks/${webhookId}/deliveries`,
      '/dashboard/api/test/outbox',
      `/dashboard/api/test/outbox/${messageId}/html`,
      '/dashboard/api/usage',
    ];
    const changes = (): Array<[string, string, unknown?]> => [
      ['POST', '/dashboard/api/test/forms', { template_id: templateId }],
      ['POST', '/dashboard/api/test/forms/generate', { prompt: 'Name and signature' }],
      ['POST', `/dashboard/api/test/forms/${form.id}/send`, { recipients: [{ email: 'x@example.com', channel: 'email' }] }],
      ['POST', '/dashboard/api/test/webhooks', { url: 'http://127.0.0.1:9/x', events: ['form.sent'] }],
      ['PATCH', `/dashboard/api/test/webhooks/${webhookId}`, { description: 'x' }],
      ['DELETE', `/dashboard/api/test/webhooks/${webhookId}`],
      ['POST', `/dashboard/api/test/webhooks/${webhookId}/rotate-secret`],
      ['POST', `/dashboard/api/test/webhooks/${webhookId}/test`],
      ['POST', `/dashboard/api/test/webhooks/${webhookId}/deliveries/${deliveryId}/retry`],
      ['PATCH', '/dashboard/api/account', { name: 'Renamed' }],
    ];

    it('every new route answers 401 session_required without a session', async () => {
      for (const url of reads()) {
        const res = await h.app.inject({ method: 'GET', url });
        assert.equal(res.statusCode, 401, `GET ${url}`);
        assert.equal(JSON.parse(res.body).error.code, 'session_required', url);
      }
      for (const [method, url, json] of changes()) {
        const res = await h.app.inject({ method: method as 'POST', url, ...(json !== undefined ? { payload: json as object } : {}) });
        assert.equal(res.statusCode, 401, `${method} ${url}`);
        assert.equal(JSON.parse(res.body).error.code, 'session_required');
      }
    });

    it('every change answers 403 csrf_token_invalid without the session\'s CSRF token, and changes nothing', async () => {
      for (const [method, url, json] of changes()) {
        for (const csrf of [false as const, 'not-the-token']) {
          const res = await a.call(method, url, { ...(json !== undefined ? { json } : {}), csrf });
          assert.equal(res.status, 403, `${method} ${url} ${String(csrf)}: ${res.body}`);
          assert.equal(errorCode(res), 'csrf_token_invalid');
        }
      }
      assert.equal((await a.call('GET', '/dashboard/api/test/webhooks')).json<{ data: unknown[] }>().data.length, 1, 'the webhook is still there');
      assert.equal((await a.call('GET', '/dashboard/api/session')).json<{ account: { name: string } }>().account.name, 'Acme');
    });

    it("another account's form, webhook, delivery and message are 404, as is the other mode's", async () => {
      const foreign: Array<[string, string, unknown?]> = [
        ['GET', `/dashboard/api/test/forms/${form.id}`],
        ['GET', `/dashboard/api/test/forms/${form.id}/events`],
        ['GET', `/dashboard/api/test/forms/${form.id}/pdf`],
        ['GET', `/dashboard/api/test/forms/${form.id}/signed-pdf`],
        ['POST', `/dashboard/api/test/forms/${form.id}/send`, { recipients: [{ email: 'x@example.com', channel: 'email' }] }],
        ['POST', '/dashboard/api/test/forms', { template_id: templateId }],
        ['GET', `/dashboard/api/test/webhooks/${webhookId}/deliveries`],
        ['PATCH', `/dashboard/api/test/webhooks/${webhookId}`, { description: 'x' }],
        ['DELETE', `/dashboard/api/test/webhooks/${webhookId}`],
        ['POST', `/dashboard/api/test/webhooks/${webhookId}/rotate-secret`],
        ['POST', `/dashboard/api/test/webhooks/${webhookId}/test`],
        ['POST', `/dashboard/api/test/webhooks/${webhookId}/deliveries/${deliveryId}/retry`],
        ['GET', `/dashboard/api/test/outbox/${messageId}/html`],
      ];
      for (const [method, url, json] of foreign) {
        const res = await b.call(method, url, json !== undefined ? { json } : {});
        assert.equal(res.status, 404, `${method} ${url}: ${res.body}`);
        assert.equal(errorCode(res), 'resource_not_found');
      }
      // A's own delivery under another of A's webhooks is not found either.
      const other = (await a.call('POST', '/dashboard/api/test/webhooks', { json: { url: 'http://127.0.0.1:9/y', events: ['form.sent'] } })).json<{ id: string }>();
      assert.equal((await a.call('POST', `/dashboard/api/test/webhooks/${other.id}/deliveries/${deliveryId}/retry`)).status, 404);
      await a.call('DELETE', `/dashboard/api/test/webhooks/${other.id}`);
      // B's lists do not show A's things.
      assert.deepEqual((await b.call('GET', '/dashboard/api/test/forms')).json<{ data: unknown[] }>().data, []);
      assert.deepEqual((await b.call('GET', '/dashboard/api/test/webhooks')).json<{ data: unknown[] }>().data, []);
      // A trial account has no live mode.
      assert.equal((await a.call('GET', '/dashboard/api/live/forms')).status, 402);
    });

    it('the dev outbox shows only the account\'s own mail, with its signing link; the e-mail is a sandboxed document', async () => {
      const bTemplate = await b.call('POST', '/dashboard/api/test/templates', (() => {
        const m = multipart([{ name: 'file', value: fixture('openoffice_form_example.pdf'), filename: 'b.pdf' }]);
        return { payload: m.payload, headers: m.headers };
      })());
      const bForm = (await b.call('POST', '/dashboard/api/test/forms', { json: { template_id: bTemplate.json<{ id: string }>().id } })).json<Form>();
      await b.call('POST', `/dashboard/api/test/forms/${bForm.id}/send`, { json: { recipients: [{ email: 'bob@example.com', channel: 'email' }] } });
      const aBox = (await a.call('GET', '/dashboard/api/test/outbox')).json<Outbox>();
      const bBox = (await b.call('GET', '/dashboard/api/test/outbox')).json<Outbox>();
      assert.deepEqual(aBox.data.map((m) => m.to), ['ada@example.com']);
      assert.deepEqual(bBox.data.map((m) => m.to), ['bob@example.com']);
      assert.deepEqual(aBox.channels, { email: true, sms: true });
      assert.equal(aBox.data[0]!.signing_url, form.recipients[0]!.signing_url);
      assert.equal(aBox.data[0]!.form_id, form.id);
      const html = await a.call('GET', `/dashboard/api/test/outbox/${messageId}/html`);
      assert.equal(html.status, 200);
      assert.match(String(html.headers['content-type']), /^text\/html/);
      assert.match(String(html.headers['content-security-policy']), /^sandbox /);
      assert.doesNotMatch(String(html.headers['content-security-policy']), /allow-scripts|allow-same-origin/);
      assert.ok(html.body.includes(form.recipients[0]!.signing_url), 'the e-mail carries the signing link');
    });

    it('forms: the API\'s validation, search by name, status filter, ETag 304 while nothing changed', async () => {
      const bad = await a.call('POST', '/dashboard/api/test/forms', { json: { template_id: templateId, prefill: { firstName: 5 } } });
      assert.equal(bad.status, 400);
      const unknown = await a.call('POST', '/dashboard/api/test/forms', { json: { template_id: templateId, colour: 'red' } });
      assert.equal(unknown.status, 400);
      assert.equal(errorCode(unknown), 'parameter_unknown');
      const draft = (await a.call('POST', '/dashboard/api/test/forms', { json: { template_id: templateId, name: '100% draft_x' } })).json<Form>();
      const names = async (q: string) => (await a.call('GET', `/dashboard/api/test/forms?${q}`)).json<{ data: Form[] }>().data.map((f) => f.name);
      assert.deepEqual(await names('name=LEASE'), ['Lease for Ada']);
      assert.deepEqual(await names(`name=${encodeURIComponent('100%')}`), ['100% draft_x'], '% is a character, not a wildcard');
      assert.deepEqual(await names('name=t_x'), ['100% draft_x']);
      assert.deepEqual(await names('name=a_x'), [], '_ is a character, not a wildcard');
      assert.deepEqual(await names('status=sent'), ['Lease for Ada']);
      assert.deepEqual(await names('status=draft&name=draft'), ['100% draft_x']);
      assert.equal((await a.call('GET', '/dashboard/api/test/forms?colour=red')).status, 400);

      const first = await a.call('GET', `/dashboard/api/test/forms/${form.id}`);
      const etag = String(first.headers['etag']);
      assert.match(etag, /^"[A-Za-z0-9_-]{32}"$/);
      const again = await a.call('GET', `/dashboard/api/test/forms/${form.id}`, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
      assert.equal(again.body, '');
      // A change (another recipient) changes the ETag.
      await a.call('POST', `/dashboard/api/test/forms/${form.id}/send`, { json: { recipients: [{ email: 'second@example.com', channel: 'email' }] } });
      const changed = await a.call('GET', `/dashboard/api/test/forms/${form.id}`, { headers: { 'if-none-match': etag } });
      assert.equal(changed.status, 200);
      assert.equal(changed.json<Form>().recipients.length, 2);
      const pdf = await a.call('GET', `/dashboard/api/test/forms/${draft.id}/pdf`);
      assert.equal(pdf.status, 200);
      assert.ok(pdf.body.startsWith('%PDF-'));
      const unsigned = await a.call('GET', `/dashboard/api/test/forms/${form.id}/signed-pdf`);
      assert.equal(unsigned.status, 409);
      assert.equal(errorCode(unsigned), 'form_not_signed');
    });

    it('usage: 30 days with today\'s counted calls and 429s, the month against the quota, each endpoint\'s window', async () => {
      await h.deps.limits.flush();
      const u = (await a.call('GET', '/dashboard/api/usage')).json<{ days: Array<{ day: string; calls: number; limited: number }>; monthly: { limit: number; used: number }; windows: Array<{ endpoint: string; limit: number; remaining: number }> }>();
      assert.equal(u.days.length, 30);
      assert.equal(u.days.at(-1)!.day, new Date().toISOString().slice(0, 10));
      const today = u.days.at(-1)!;
      assert.ok(today.calls >= 5, `the dashboard's writes count as the API's: ${today.calls}`);
      assert.equal(u.monthly.limit, 1000);
      assert.equal(u.monthly.used, today.calls + u.days.slice(0, -1).filter((d) => d.day.slice(0, 7) === today.day.slice(0, 7)).reduce((s, d) => s + d.calls, 0));
      const send = u.windows.find((w) => w.endpoint === 'POST /api/v1/forms/:form_id/send')!;
      assert.equal(send.limit, 60);
      assert.ok(send.remaining < 60, 'the sends used the window');
      assert.ok(u.windows.some((w) => w.endpoint === 'POST /api/v1/webhooks/:webhook_id/test'));
    });

    it('settings: the account is renamed (the session shows it); an empty name is refused', async () => {
      const res = await a.call('PATCH', '/dashboard/api/account', { json: { name: '  Acme Ltd ' } });
      assert.equal(res.status, 200, res.body);
      assert.equal((await a.call('GET', '/dashboard/api/session')).json<{ account: { name: string } }>().account.name, 'Acme Ltd');
      const empty = await a.call('PATCH', '/dashboard/api/account', { json: { name: ' ' } });
      assert.equal(empty.status, 400);
      assert.equal(errorCode(empty), 'parameter_missing');
    });
  });
}
