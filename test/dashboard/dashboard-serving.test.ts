import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { DIST_DIR, registerSpa } from '../../src/http/dashboard/spa.js';
import { createHarness, type Harness } from '../harness.js';
import { visitor, signedUp } from './support.js';

// The built dashboard as the server sends it: the page under every /dashboard address (no-store, its
// own CSP, whether the browser is signed in), assets by content hash with a year-long immutable cache,
// Brotli or gzip copies made at build time, and the initial route's JavaScript inside its budget.

const INITIAL_JS_BUDGET = 300 * 1024;

describe('dashboard static serving', () => {
  let h: Harness;
  before(async () => {
    assert.ok(fs.existsSync(path.join(DIST_DIR, 'index.html')), 'the dashboard is built (npm test builds it; by hand: npm run build:web)');
    h = await createHarness('sqlite');
  });
  after(() => h.close());

  const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url, headers });

  it('every address under /dashboard (not the API) is the app\'s page, never cached, under a strict CSP', async () => {
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/templates', '/dashboard/templates/tmpl_x', '/dashboard/keys', '/dashboard/link']) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.equal(res.headers['cache-control'], 'no-store');
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/, 'no inline script');
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.match(res.body, /<div id="root"><\/div>/);
      assert.match(res.body, /<script type="module" crossorigin src="\/dashboard\/assets\/index-[\w-]+\.js"><\/script>/);
      assert.doesNotMatch(res.body, /__FORMSIGN_/, 'placeholders are filled');
    }
  });

  it('the page tells the app whether the browser is signed in, and where pdf.js is', async () => {
    const config = (body: string) => JSON.parse(/name="formsign-config" content="([^"]+)"/.exec(body)![1]!.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')) as { signedIn: boolean; pdfjs: string; pdfjsWorker: string };
    const out = config((await get('/dashboard')).body);
    assert.equal(out.signedIn, false);
    const a = await signedUp(h);
    const inside = config((await get('/dashboard/templates', { cookie: a.cookie! })).body);
    assert.equal(inside.signedIn, true);
    assert.equal((await get(inside.pdfjs)).statusCode, 200, 'pdf.js is served');
    assert.equal((await get(inside.pdfjsWorker)).statusCode, 200, 'its worker too');
    assert.equal(config((await get('/dashboard', { cookie: 'formsign_session=forged' })).body).signedIn, false);
  });

  it('assets carry their hash, are cached immutable for a year and come precompressed (Brotli, else gzip)', async () => {
    const page = (await get('/dashboard')).body;
    const assets = [...page.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), assets.join(' '));
    let initialJs = 0;
    for (const url of assets) {
      assert.match(url, /-[\w-]{8}\.(js|css)$/, 'a content hash in the name');
      const plain = await get(url);
      assert.equal(plain.statusCode, 200);
      assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(plain.headers['vary'], 'Accept-Encoding');
      assert.equal(plain.headers['content-encoding'], undefined);
      const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.deepEqual(zlib.brotliDecompressSync(br.rawPayload), plain.rawPayload, 'the Brotli copy is the same file');
      const gz = await get(url, { 'accept-encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.deepEqual(zlib.gunzipSync(gz.rawPayload), plain.rawPayload);
      if (url.endsWith('.js')) initialJs += br.rawPayload.length;
    }
    assert.ok(initialJs < INITIAL_JS_BUDGET, `initial route's JavaScript ${initialJs} B compressed, budget ${INITIAL_JS_BUDGET}`);
    // The builder is a separate chunk, not part of the first load.
    assert.ok(fs.readdirSync(path.join(DIST_DIR, 'assets')).some((f) => /^Builder-.+\.js$/.test(f)), 'the builder is its own chunk');
    assert.ok(!assets.some((a) => /Builder/.test(a)));
    const missing = await get('/dashboard/assets/index-00000000.js');
    assert.equal(missing.statusCode, 404);
  });

  it('the API under /dashboard/api stays JSON: unknown routes, wrong methods, bad JSON', async () => {
    const v = visitor(h);
    const guarded = await v.call('GET', '/dashboard/api/test/templates');
    assert.equal(guarded.status, 401, 'a guarded route answers 401 before anything else');
    const nothing = await v.call('POST', '/dashboard/api/nothing');
    assert.equal(nothing.status, 404);
    assert.match(String(nothing.headers['content-type']), /^application\/json/);
    const bad = await v.call('POST', '/dashboard/api/login', { payload: Buffer.from('{not json'), headers: { 'content-type': 'application/json' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json<{ error: { code: string } }>().error.code, 'invalid_json');
  });
});

describe('dashboard not built', () => {
  it('says how to build it instead of failing', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-nodist-'));
    const app = Fastify();
    registerSpa(app, { db: undefined, clock: undefined } as never, empty);
    try {
      const res = await app.inject({ method: 'GET', url: '/dashboard/templates' });
      assert.equal(res.statusCode, 503);
      assert.match(res.body, /npm run build:web/);
    } finally {
      await app.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
