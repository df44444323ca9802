import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import YAML from 'yaml';
import { generateTypes } from '../../scripts/generate-types.js';
import { GENERATED_TYPES_PATH, listOperations, loadOpenApiDocument, servedDocument, type OpenApiDocument } from '../../src/http/openapi.js';
import { ROUTES } from '../../src/http/routes/index.js';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';

const doc = loadOpenApiDocument();
const implemented = listOperations(doc).filter((o) => !o.planned);

describe('contract: openapi.yaml is authoritative', () => {
  it('src/generated/api.d.ts is what openapi-typescript makes of the served document (run `npm run generate`)', async () => {
    assert.equal(fs.readFileSync(GENERATED_TYPES_PATH, 'utf8'), await generateTypes());
  });

  it('every implemented operation has a route and every route an operation', () => {
    const ops = implemented.map((o) => o.operation.operationId).sort();
    const routes = ROUTES.map((r) => r.operationId).sort();
    assert.deepEqual(routes, ops);
    assert.equal(new Set(ops).size, ops.length, 'operationIds are unique');
  });
});

for (const dialect of DIALECTS) {
  describe(`contract: the app serves the document (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect);
    });
    after(() => h.close());

    it('the app serves each implemented operation at its method and path', () => {
      for (const o of implemented) assert.ok(h.app.hasRoute({ method: o.method as 'GET', url: o.route }), `${o.method} ${o.route} registered`);
    });

    it('the served document omits planned operations, and none of its operations answers route_not_found', async () => {
      const res = await h.request({ url: '/api/v1/openapi.yaml', as: h.actors.aTest });
      assert.match(String(res.headers['content-type']), /^application\/yaml/);
      const served = YAML.parse(res.body) as OpenApiDocument;
      assert.equal(served.openapi, '3.1.0');
      assert.deepEqual(served, servedDocument(doc, h.deps.config.baseUrl));
      const servedOps = listOperations(served);
      assert.ok(servedOps.every((o) => !o.planned));
      assert.equal(servedOps.length, implemented.length);
      for (const o of servedOps) {
        const url = o.path.replace(/\{[^}]+\}/g, 'x_unknown');
        const r = await h.request({ method: o.method, url, as: h.actors.aTest, ...(o.method === 'POST' && !o.operation.requestBody?.content['multipart/form-data'] ? { json: {} } : {}) });
        if (r.status === 404) assert.notEqual(errorOf(r).code, 'route_not_found', `${o.method} ${o.path}`);
        assert.notEqual(r.status, 405, `${o.method} ${o.path}`);
      }
    });

    it('planned operations answer route_not_found or method_not_allowed until built', async () => {
      for (const o of listOperations(doc).filter((x) => x.planned)) {
        const url = o.path.replace(/\{[^}]+\}/g, 'x_unknown');
        const r = await h.request({ method: o.method, url, as: h.actors.aTest, ...(o.method === 'POST' || o.method === 'PATCH' ? { json: {} } : {}) });
        assert.ok([404, 405].includes(r.status), `${o.method} ${o.path} is planned but answered ${r.status}`);
      }
    });

    it('GET /api/v1/sdk/typescript serves the generated declarations exporting paths and components', async () => {
      const res = await h.request({ url: '/api/v1/sdk/typescript', as: h.actors.bTest });
      assert.match(String(res.headers['content-type']), /^application\/typescript/);
      assert.equal(res.body, fs.readFileSync(GENERATED_TYPES_PATH, 'utf8'));
      assert.match(res.body, /export interface paths \{/);
      assert.match(res.body, /export interface components \{/);
      assert.match(res.body, /\n {8}Form: \{/);
      assert.match(res.body, /"\/api\/v1\/templates": \{/);
    });
  });
}
