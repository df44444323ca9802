import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { errorCode, signedUp, uploadedTemplate, type Visitor } from './support.js';

// Dashboard settings (issue 24) on both dialects: the signers' default language and the origins
// allowed to embed signing pages, and the builder's save of named signer slots. Each needs a session
// (401) and, to change, its CSRF token (403); another account and the other mode see none of it; what
// is set is what a signing page then does (its language, its frame-ancestors).

interface LocaleSettings { object: string; locale: string | null; languages: Array<{ tag: string; name: string }> }
interface Origin { object: string; origin: string; mode: string }

for (const dialect of DIALECTS) {
  describe(`dashboard settings: default language, embed origins, signer roles (${dialect})`, () => {
    let h: Harness;
    let a: Visitor & { accountId: string };
    let b: Visitor & { accountId: string };
    let templateId: string;

    before(async () => {
      h = await createHarness(dialect);
      a = await signedUp(h);
      b = await signedUp(h);
      templateId = await uploadedTemplate(a);
    });
    after(() => h.close());

    /** A form sent from A's template; the path of its signing page. */
    async function signingPath(): Promise<string> {
      const created = await a.call('POST', '/dashboard/api/test/forms', { json: { template_id: templateId } });
      assert.equal(created.status, 201, created.body);
      const sent = await a.call('POST', `/dashboard/api/test/forms/${created.json<{ id: string }>().id}/send`, { json: { recipients: [{ email: 'ada@example.com', channel: 'email' }] } });
      assert.equal(sent.status, 200, sent.body);
      return new URL(sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url).pathname;
    }

    const changes = (): Array<[string, string, unknown?]> => [
      ['PUT', '/dashboard/api/settings/locale', { locale: 'de' }],
      ['POST', '/dashboard/api/test/embed/origins', { origin: 'https://app.example.com' }],
      ['DELETE', '/dashboard/api/test/embed/origins?origin=https%3A%2F%2Fapp.example.com'],
      ['PATCH', `/dashboard/api/test/templates/${templateId}`, { signers: [{ slot: 1, role: 'Tenant' }] }],
    ];

    it('answers 401 without a session and 403 without the CSRF token, changing nothing', async () => {
      for (const url of ['/dashboard/api/settings/locale', '/dashboard/api/test/embed/origins']) {
        const res = await h.app.inject({ method: 'GET', url });
        assert.equal(res.statusCode, 401, url);
        assert.equal(JSON.parse(res.body).error.code, 'session_required');
      }
      for (const [method, url, json] of changes()) {
        const anon = await h.app.inject({ method: method as 'POST', url, ...(json !== undefined ? { payload: json as object } : {}) });
        assert.equal(anon.statusCode, 401, `${method} ${url}`);
        for (const csrf of [false as const, 'not-the-token']) {
          const res = await a.call(method, url, { ...(json !== undefined ? { json } : {}), csrf });
          assert.equal(res.status, 403, `${method} ${url}: ${res.body}`);
          assert.equal(errorCode(res), 'csrf_token_invalid');
        }
      }
      assert.equal((await a.call('GET', '/dashboard/api/settings/locale')).json<LocaleSettings>().locale, null);
      assert.deepEqual((await a.call('GET', '/dashboard/api/test/embed/origins')).json<{ data: Origin[] }>().data, []);
    });

    it('the default language: 22 languages by their own names; set, read by the signing page, refused when unknown, cleared', async () => {
      const start = (await a.call('GET', '/dashboard/api/settings/locale')).json<LocaleSettings>();
      assert.equal(start.object, 'locale_settings');
      assert.equal(start.locale, null);
      assert.equal(start.languages.length, 22);
      assert.deepEqual(start.languages.slice(0, 2), [{ tag: 'en', name: 'English' }, { tag: 'ar', name: 'العربية' }]);
      assert.ok(start.languages.some((l) => l.tag === 'de' && l.name === 'Deutsch'));

      const set = await a.call('PUT', '/dashboard/api/settings/locale', { json: { locale: 'de' } });
      assert.equal(set.status, 200, set.body);
      assert.equal(set.json<LocaleSettings>().locale, 'de');
      assert.equal((await a.call('GET', '/dashboard/api/settings/locale')).json<LocaleSettings>().locale, 'de');
      assert.equal((await b.call('GET', '/dashboard/api/settings/locale')).json<LocaleSettings>().locale, null, "another account's stays");
      const page = await h.app.inject({ method: 'GET', url: await signingPath() });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<html[^>]*lang="de"/, 'a signer whose browser names no language reads the account default');

      const unknown = await a.call('PUT', '/dashboard/api/settings/locale', { json: { locale: 'xx' } });
      assert.equal(unknown.status, 400, unknown.body);
      assert.equal(errorCode(unknown), 'language_unsupported');
      const bad = await a.call('PUT', '/dashboard/api/settings/locale', { json: { locale: 42 } });
      assert.equal(errorCode(bad), 'parameter_invalid');
      assert.equal(errorCode(await a.call('PUT', '/dashboard/api/settings/locale', { json: { locale: 'de', x: 1 } })), 'parameter_unknown');
      assert.equal((await a.call('GET', '/dashboard/api/settings/locale')).json<LocaleSettings>().locale, 'de', 'refused calls changed nothing');

      const cleared = await a.call('PUT', '/dashboard/api/settings/locale', { json: { locale: null } });
      assert.equal(cleared.json<LocaleSettings>().locale, null);
    });

    it('embed origins: add (canonical, 201 then 200), list, the signing page may be framed by it; another account sees none; remove', async () => {
      const added = await a.call('POST', '/dashboard/api/test/embed/origins', { json: { origin: 'HTTPS://App.Example.com:443' } });
      assert.equal(added.status, 201, added.body);
      assert.deepEqual({ ...added.json<Origin>(), created_at: undefined }, { object: 'embed_origin', origin: 'https://app.example.com', mode: 'test', created_at: undefined });
      assert.equal((await a.call('POST', '/dashboard/api/test/embed/origins', { json: { origin: 'https://app.example.com' } })).status, 200, 'adding it again is no error');
      const list = (await a.call('GET', '/dashboard/api/test/embed/origins')).json<{ data: Origin[] }>();
      assert.deepEqual(list.data.map((o) => o.origin), ['https://app.example.com']);
      const page = await h.app.inject({ method: 'GET', url: await signingPath() });
      assert.match(String(page.headers['content-security-policy']), /frame-ancestors[^;]*https:\/\/app\.example\.com/);

      assert.deepEqual((await b.call('GET', '/dashboard/api/test/embed/origins')).json<{ data: Origin[] }>().data, []);
      const other = await b.call('DELETE', '/dashboard/api/test/embed/origins?origin=https%3A%2F%2Fapp.example.com');
      assert.equal(other.status, 404, other.body);
      assert.equal(errorCode(other), 'resource_not_found');
      const bad = await a.call('POST', '/dashboard/api/test/embed/origins', { json: { origin: 'https://app.example.com/path' } });
      assert.equal(bad.status, 400, bad.body);
      assert.equal(errorCode(bad), 'parameter_invalid');

      const removed = await a.call('DELETE', '/dashboard/api/test/embed/origins?origin=https%3A%2F%2Fapp.example.com');
      assert.equal(removed.status, 200, removed.body);
      assert.deepEqual(removed.json(), { object: 'embed_origin', origin: 'https://app.example.com', deleted: true });
      assert.deepEqual((await a.call('GET', '/dashboard/api/test/embed/origins')).json<{ data: Origin[] }>().data, []);
    });

    it("the builder's save names signer slots; the template answers with them; another account's is not found", async () => {
      const res = await a.call('PATCH', `/dashboard/api/test/templates/${templateId}`, { json: { signers: [{ slot: 2, role: 'Landlord' }, { slot: 1, role: 'Tenant' }] } });
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(res.json<{ signers: unknown }>().signers, [{ slot: 1, role: 'Tenant' }, { slot: 2, role: 'Landlord' }]);
      const got = await a.call('GET', `/dashboard/api/test/templates/${templateId}`);
      assert.deepEqual(got.json<{ signers: unknown }>().signers, [{ slot: 1, role: 'Tenant' }, { slot: 2, role: 'Landlord' }]);
      const foreign = await b.call('PATCH', `/dashboard/api/test/templates/${templateId}`, { json: { signers: [] } });
      assert.equal(foreign.status, 404, foreign.body);
      const blank = await a.call('PATCH', `/dashboard/api/test/templates/${templateId}`, { json: { signers: [{ slot: 1, role: ' ' }] } });
      assert.equal(errorCode(blank), 'parameter_invalid');
      assert.equal(blank.json<{ error: { param: string } }>().error.param, 'signers[0].role');
    });
  });
}
