// /docs and the served contract name the server they come from (its BASE_URL, which follows PORT),
// not the file's default http://localhost:3000 (issue 22).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import YAML from 'yaml';
import { createHarness, type Harness } from '../harness.js';

for (const [env, expected] of [
  [{ PORT: '3401' }, 'http://localhost:3401'],
  [{ PORT: '3401', BASE_URL: 'https://sign.example.com/' }, 'https://sign.example.com'],
] as const) {
  describe(`the served contract with ${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')}`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness('sqlite', { env });
    });
    after(() => h.close());

    it(`/docs/openapi.json names ${expected} as its one server`, async () => {
      const res = await h.request({ url: '/docs/openapi.json' });
      assert.equal(res.status, 200);
      assert.deepEqual((res.json() as { servers: unknown }).servers, [{ url: expected, description: 'This server (its BASE_URL).' }]);
    });

    it(`/api/v1/openapi.yaml names ${expected} too`, async () => {
      const res = await h.request({ url: '/api/v1/openapi.yaml', as: h.actors.aTest });
      assert.equal(res.status, 200);
      assert.deepEqual((YAML.parse(res.body) as { servers: unknown }).servers, [{ url: expected, description: 'This server (its BASE_URL).' }]);
    });
  });
}
