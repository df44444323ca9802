import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setAccountLimits } from '../../src/domain/accounts/manage-accounts.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';
import { errorCode, signedUp, type Visitor } from './support.js';

// The dashboard's template upload and edits are held to the same per-minute windows and monthly
// quota as the API (keyed by the session's account, one window for both), and go through the same
// checks of names and fields; live mode needs a paid plan by one rule for pages and keys.

const OPENOFFICE = 'openoffice_form_example.pdf';

interface Template { id: string; name: string; fields: Array<Record<string, unknown>> }

function upload(v: Visitor, parts: Array<{ name: string; value: string | Buffer; filename?: string }> = []) {
  const m = multipart([{ name: 'file', value: fixture(OPENOFFICE), filename: OPENOFFICE }, ...parts]);
  return v.call('POST', '/dashboard/api/test/templates', { payload: m.payload, headers: m.headers });
}

for (const dialect of DIALECTS) {
  describe(`dashboard limits and shared rules (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect);
    });
    after(() => h.close());

    it('template edits share the API\'s per-minute window for the account; a refused edit changes nothing', async () => {
      const a = await signedUp(h);
      await setAccountLimits(h.deps.domain, a.accountId, { perMinute: 3 });
      const made = await upload(a);
      assert.equal(made.status, 201, made.body.slice(0, 300));
      assert.equal(made.headers['x-ratelimit-limit'], '3');
      assert.equal(made.headers['x-ratelimit-remaining'], '2');
      const t = made.json<Template>();
      const rename = (name: string) => a.call('PATCH', `/dashboard/api/test/templates/${t.id}`, { json: { name } });
      assert.equal((await rename('first')).status, 200);
      // The same endpoint through an API key counts in the same window.
      const key = (await a.call('POST', '/dashboard/api/keys', { json: { mode: 'test' } })).json<{ key: string }>().key;
      const api = await h.request({ method: 'PATCH', url: `/api/v1/templates/${t.id}`, json: { name: 'second' }, headers: { authorization: `Bearer ${key}` } });
      assert.equal(api.status, 200, api.body);
      const third = await rename('third');
      assert.equal(third.status, 200);
      assert.equal(third.headers['x-ratelimit-remaining'], '0');
      const refused = await rename('fourth');
      assert.equal(refused.status, 429);
      assert.equal(errorCode(refused), 'rate_limited');
      assert.ok(Number(refused.headers['retry-after']) > 0);
      assert.equal((await a.call('GET', `/dashboard/api/test/templates/${t.id}`)).json<Template>().name, 'third', 'the refused rename did not happen');
      // Reads stay open (their own window).
      assert.equal((await a.call('GET', '/dashboard/api/test/templates')).status, 200);
    });

    it('dashboard uploads count toward the monthly quota', async () => {
      const a = await signedUp(h);
      await setAccountLimits(h.deps.domain, a.accountId, { monthly: 1 });
      const first = await upload(a);
      assert.equal(first.status, 201);
      assert.equal(first.headers['x-ratelimit-monthly-remaining'], '0');
      const second = await upload(a);
      assert.equal(second.status, 429);
      assert.equal(errorCode(second), 'monthly_quota_exceeded');
      assert.equal((await a.call('GET', '/dashboard/api/test/templates')).json<{ data: unknown[] }>().data.length, 1, 'no second template');
    });

    it('an upload\'s name and fields parts get the API\'s checks: a blank or long name is refused, fields replace detection', async () => {
      const a = await signedUp(h);
      for (const name of ['   ', 'x'.repeat(201)]) {
        const res = await upload(a, [{ name: 'name', value: name }]);
        assert.equal(res.status, 400, name.slice(0, 5));
        assert.equal(errorCode(res), 'parameter_invalid');
        assert.equal(res.json<{ error: { param: string } }>().error.param, 'name');
      }
      const badJson = await upload(a, [{ name: 'fields', value: '[{"name":' }]);
      assert.equal(badJson.status, 400);
      assert.equal(res400Param(badJson), 'fields');
      const field = { name: 'client_name', type: 'text', page: 1, x: 72, y: 100, width: 200, height: 20 };
      const made = await upload(a, [{ name: 'name', value: '  Intake  ' }, { name: 'fields', value: JSON.stringify([field]) }]);
      assert.equal(made.status, 201, made.body.slice(0, 300));
      const t = made.json<Template>();
      assert.equal(t.name, 'Intake');
      assert.deepEqual(t.fields.map((f) => f.name), ['client_name']);
      // The API refuses the same blank name with the same answer.
      const key = (await a.call('POST', '/dashboard/api/keys', { json: { mode: 'test' } })).json<{ key: string }>().key;
      const m = multipart([{ name: 'file', value: fixture(OPENOFFICE), filename: OPENOFFICE }, { name: 'name', value: '   ' }]);
      const api = await h.request({ method: 'POST', url: '/api/v1/templates', payload: m.payload, headers: { ...m.headers, authorization: `Bearer ${key}` } });
      assert.equal(api.status, 400);
      const dash = await upload(a, [{ name: 'name', value: '   ' }]);
      assert.equal(api.json<{ error: { message: string } }>().error.message, dash.json<{ error: { message: string } }>().error.message);
    });

    it('live needs a paid plan by one rule: the pages and the keys give the same answer', async () => {
      const a = await signedUp(h);
      const page = await a.call('GET', '/dashboard/api/live/templates');
      const key = await a.call('POST', '/dashboard/api/keys', { json: { mode: 'live' } });
      assert.equal(page.status, 402);
      assert.equal(key.status, 402);
      assert.equal(errorCode(page), 'plan_required');
      assert.equal(page.json<{ error: { message: string } }>().error.message, key.json<{ error: { message: string } }>().error.message);
      assert.equal(key.json<{ error: { param: string } }>().error.param, 'mode');
    });
  });
}

function res400Param(res: { json<T>(): T }): string {
  return res.json<{ error: { param: string } }>().error.param;
}
