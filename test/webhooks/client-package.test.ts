import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createFormsignClient } from '../../clients/typescript/src/index.js';
import { createHarness, type Harness } from '../harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PKG = path.join(ROOT, 'clients/typescript');

describe('the TypeScript client package', () => {
  it('carries the generated types of this openapi.yaml (npm --prefix clients/typescript run sync-types)', () => {
    assert.ok(fs.readFileSync(path.join(PKG, 'src/generated/api.ts')).equals(fs.readFileSync(path.join(ROOT, 'src/generated/api.d.ts'))), 'clients/typescript/src/generated/api.ts is stale');
  });

  it('builds with its own tsconfig (declarations included) into a package that loads', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-client-'));
    try {
      execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(PKG, 'tsconfig.json'), '--outDir', out], { stdio: 'pipe' });
      for (const f of ['index.js', 'index.d.ts', 'verify-webhook.js', 'client.js', 'generated/api.d.ts']) assert.ok(fs.existsSync(path.join(out, f)), `${f} was emitted`);
      assert.match(fs.readFileSync(path.join(out, 'index.d.ts'), 'utf8'), /verifyWebhook/);
      const pkg = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies: Record<string, string>; types: string; scripts: Record<string, string> };
      // No runtime dependency: openapi-fetch is vendored into dist/ by the build (scripts/build.mjs), so
      // the package installs offline (test/webhooks/client-install.test.ts installs it).
      assert.equal(pkg.dependencies, undefined);
      assert.ok(pkg.devDependencies['openapi-fetch']);
      assert.equal(pkg.scripts.prepare, 'npm run build');
      assert.equal(pkg.types, './dist/index.d.ts');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  describe('against a running server', () => {
    let h: Harness;
    let baseUrl: string;
    before(async () => {
      h = await createHarness('sqlite');
      baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(() => h.close());

    it('creates, lists and reads webhooks with typed calls; errors come back typed', async () => {
      const client = createFormsignClient({ apiKey: h.actors.aTest.key, baseUrl });
      const created = await client.POST('/api/v1/webhooks', { body: { url: 'https://hooks.example.com/x', events: ['form.signed'] } });
      assert.equal(created.response.status, 201);
      assert.match(created.data!.signing_secret, /^whsec_/);
      const list = await client.GET('/api/v1/webhooks', { params: { query: { limit: 10 } } });
      assert.deepEqual(list.data!.data.map((w) => w.id), [created.data!.id]);
      const missing = await client.GET('/api/v1/webhooks/{webhook_id}', { params: { path: { webhook_id: 'wh_nope' } } });
      assert.equal(missing.response.status, 404);
      assert.equal(missing.error!.error.code, 'resource_not_found');
      const wrongKey = createFormsignClient({ apiKey: h.actors.bTest.key, baseUrl: `${baseUrl}/` });
      assert.equal((await wrongKey.GET('/api/v1/webhooks/{webhook_id}', { params: { path: { webhook_id: created.data!.id } } })).response.status, 404);
    });
  });
});
