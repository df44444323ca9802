// The compiled build (scripts/build.mjs → dist/) runs without tsx: its PDF worker threads start, the
// contract it reads is openapi.yaml's, and files read relative to a module are found from dist/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { build, isStale, REQUIRE_BANNER } from '../../scripts/build.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../fixtures/pdfs/openoffice_form_example.pdf', import.meta.url));
const { NODE_OPTIONS: _ignored, ...env } = process.env;

/** Runs an ES module (a file in the repository root, so './dist/…' resolves) in a plain node: no tsx, no flags. */
function runPlain(code: string): unknown {
  const file = path.join(ROOT, `.compiled-test-${process.pid}-${Date.now()}.mjs`);
  fs.writeFileSync(file, code);
  try {
    const r = spawnSync(process.execPath, [file], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, `exit ${r.status} ${r.signal ?? ''}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/**
 * Packages a one-shot command and the start of `serve` must not load (issue 36 item 3): each is tens to
 * hundreds of files, loaded where the feature is used (PDF work, signatures, the HTTP app, PostgreSQL).
 */
const HEAVY = ['@cantoo/pdf-lib', '@cantoo/fontkit', 'pdfjs-dist', '@napi-rs/canvas', 'fastify', 'ajv', 'pino', 'qrcode', 'openid-client', 'jose', 'pg'];

const packageOf = (specifier: string): string => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);

/** The packages `file` of dist/bundle imports statically, through the chunks it imports statically. */
function staticPackages(file: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const code = fs.readFileSync(`${ROOT}/dist/bundle/${name}`, 'utf8');
    // esbuild's static imports, each at a line's start (a dynamic import( is not one).
    for (const m of code.matchAll(/^import\s+(?:(?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*\s+as\s+[\w$]+|[\w$]+)\s+from\s+)?["']([^"']+)["'];?$/gm)) {
      const spec = m[1]!;
      if (spec.startsWith('./')) visit(spec.slice(2));
      else if (!spec.startsWith('node:')) packages.add(packageOf(spec));
    }
  };
  visit(file);
  return packages;
}

describe('compiled build', () => {
  before(async () => {
    if (isStale()) await build();
  });

  it('is up to date after a build (what bin/formsign.js checks before each run)', () => {
    assert.equal(isStale(), false);
    assert.ok(fs.existsSync(`${ROOT}/dist/main.js.map`), 'source maps are written');
  });

  it('runs PDF work in worker threads without tsx', () => {
    const out = runPlain(`
      import { readFileSync } from 'node:fs';
      import { createPdfInspector } from './dist/pdf/index.js';
      const inspector = createPdfInspector({ timeoutMs: 10_000, maxOldGenerationSizeMb: 128 });
      const r = await inspector.inspect(readFileSync(${JSON.stringify(FIXTURE)}));
      await inspector.close();
      process.stdout.write(JSON.stringify({ fields: r.fields.length }));
    `);
    assert.deepEqual(out, { fields: 12 });
    // The tsx-registering entry of src/ is not in dist/, so the thread above started without it.
    assert.equal(fs.existsSync(`${ROOT}/dist/pdf/pool/worker.mjs`), false);
  });

  it('serves the contract of openapi.yaml and the generated types from dist/', () => {
    const out = runPlain(`
      import { loadOpenApiDocument, GENERATED_TYPES_PATH } from './dist/http/openapi.js';
      import { readFileSync } from 'node:fs';
      process.stdout.write(JSON.stringify({ doc: loadOpenApiDocument(), types: readFileSync(GENERATED_TYPES_PATH, 'utf8').length }));
    `) as { doc: unknown; types: number };
    assert.deepEqual(out.doc, YAML.parse(fs.readFileSync(`${ROOT}/openapi/openapi.yaml`, 'utf8')));
    assert.equal(out.types, fs.readFileSync(`${ROOT}/src/generated/api.d.ts`, 'utf8').length);
  });

  it("compiles the pages' TypeScript scripts for the browser, serves them from dist/, and a changed script makes the build stale (issue 36 item 5)", async () => {
    const pages = `${ROOT}/src/http/pages`;
    const sources = ['sign', 'verify'].flatMap((page) => fs.readdirSync(`${pages}/${page}/assets`).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).map((f) => `${page}/assets/${f}`));
    assert.ok(sources.includes('sign/assets/sign.ts') && sources.includes('verify/assets/verdict.ts'), sources.join(' '));
    for (const f of sources) {
      const js = `${ROOT}/dist/http/pages/${f.replace(/\.ts$/, '.js')}`;
      assert.ok(fs.existsSync(js), `${f} is compiled`);
      assert.ok(!fs.existsSync(`${ROOT}/dist/http/pages/${f}`), `${f} is not shipped as TypeScript`);
      assert.doesNotMatch(fs.readFileSync(js, 'utf8'), /^import type|\bas HTMLElement\b|: string\)/m, `${f} is JavaScript`);
    }
    // What the server sends is the compiled file (dist/ runs without the TypeScript sources).
    const served = runPlain(`
      import { SIGN_ASSETS } from './dist/http/pages/sign/sign-assets.js';
      import { VERIFY_ASSETS } from './dist/http/pages/verify/verify-html.js';
      process.stdout.write(JSON.stringify({ sign: SIGN_ASSETS.script.body.toString('utf8'), verdict: VERIFY_ASSETS.verdict.body.toString('utf8') }));
    `) as { sign: string; verdict: string };
    assert.equal(served.sign, fs.readFileSync(`${ROOT}/dist/http/pages/sign/assets/sign.js`, 'utf8'));
    assert.equal(served.verdict, fs.readFileSync(`${ROOT}/dist/http/pages/verify/assets/verdict.js`, 'utf8'));
    // A page script edited after the build is a change like any other source's.
    const file = `${pages}/sign/assets/sign-wait.ts`;
    const before = fs.statSync(file);
    try {
      fs.utimesSync(file, before.atime, new Date(Date.now() + 5000));
      assert.equal(isStale(), true);
    } finally {
      fs.utimesSync(file, before.atime, before.mtime);
    }
    // Restored to the millisecond: rebuilt if that was not exactly the stamp's time, so dist/ is left fresh.
    if (isStale()) await build();
  });

  it('bundles src/main.ts for bin/formsign.js, its modules finding their files where dist/ has them (issue 36 item 3)', () => {
    const bin = fs.readFileSync(`${ROOT}/bin/formsign.js`, 'utf8');
    assert.match(bin, /import\('\.\.\/dist\/bundle\/main\.js'\)/);
    const files = fs.readdirSync(`${ROOT}/dist/bundle`);
    assert.ok(files.includes('main.js') && files.includes('main.js.map'));
    // Far fewer files to load than dist/'s one per module.
    assert.ok(files.filter((f) => f.endsWith('.js')).length < 100, `${files.length} files`);
    // No module of the bundle resolves a file against the bundle's own folder.
    const code = files.filter((f) => f.endsWith('.js')).map((f) => fs.readFileSync(`${ROOT}/dist/bundle/${f}`, 'utf8')).join('\n');
    const bare = code.split('\n').filter((l) => l !== REQUIRE_BANNER && /import\.meta\.url/.test(l) && !/new URL\("\.\.\/[^"]+\.js", import\.meta\.url\)\.href/.test(l));
    assert.deepEqual(bare, []);
    // `npm start` is one node process: the dashboard's staleness check runs inside it.
    const pkg = JSON.parse(fs.readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: Record<string, string> };
    assert.equal(pkg.scripts['start'], 'node bin/formsign.js serve');
  });

  it('keeps the heavy packages off the start path: `serve` listens before the HTTP app loads (issue 36 item 3)', () => {
    const files = fs.readdirSync(`${ROOT}/dist/bundle`);
    const serveChunk = files.find((f) => /^serve-[A-Z0-9]+\.js$/.test(f));
    assert.ok(serveChunk, `a serve chunk in ${files.join(' ')}`);
    // What runs before the start gate listens: main.js and the serve chunk, with what they import statically.
    const early = new Set([...staticPackages('main.js'), ...staticPackages(serveChunk)]);
    assert.deepEqual(HEAVY.filter((p) => early.has(p)), [], `statically imported before listening: ${[...early].join(', ')}`);
    // The check itself sees packages: the HTTP app's chunk does import fastify.
    const app = files.find((f) => /^app-[A-Z0-9]+\.js$/.test(f));
    assert.ok(app && staticPackages(app).has('fastify'));
  });

  it('runs `accounts list` without loading any heavy package (issue 36 item 3)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-start-path-'));
    const log = path.join(dir, 'modules.txt');
    // Module hooks (node:module register) write each module the command resolves to the log.
    const hooks = `import fs from 'node:fs'; export async function resolve(s, c, next) { const r = await next(s, c); fs.appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }`;
    const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
    try {
      const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, 'bin/formsign.js', 'accounts', 'list'], { cwd: ROOT, env: { ...env, DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'warn' }, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, 'No accounts.\n');
      const loaded = new Set(fs.readFileSync(log, 'utf8').split('\n').flatMap((url) => {
        const m = /\/node_modules\/(.+)$/.exec(url);
        return m ? [packageOf(m[1]!)] : [];
      }));
      assert.ok(loaded.has('better-sqlite3'), `the log sees packages: ${[...loaded].join(', ')}`);
      assert.deepEqual(HEAVY.filter((p) => loaded.has(p)), [], `loaded: ${[...loaded].join(', ')}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers /readyz's certificate question for the generated self-signed certificate without loading the sealing code (issue 36 item 3)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-cert-check-'));
    const log = path.join(dir, 'modules.txt');
    const hooks = `import fs from 'node:fs'; export async function resolve(s, c, next) { const r = await next(s, c); fs.appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }`;
    try {
      const out = runPlain(`
        import fs from 'node:fs';
        import { register } from 'node:module';
        register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});
        const { checkSigningCertificate, loadSigningCertificate } = await import('./dist/pdf/index.js');
        const cert = loadSigningCertificate({ dataDir: ${JSON.stringify(dir)}, serviceName: 'Formsign' });
        await checkSigningCertificate(cert, new Date(), 1000);
        const sealLoaded = /\\/pdf\\/seal\\/index\\.js|@cantoo\\/pdf-lib/.test(fs.readFileSync(${JSON.stringify(log)}, 'utf8'));
        // Past its validity the full check runs, and refuses it.
        const late = await checkSigningCertificate(cert, new Date(Date.now() + 11 * 365 * 86_400_000), 1000).then(() => 'accepted', (e) => e.reason);
        process.stdout.write(JSON.stringify({ sealLoaded, late }));
      `);
      assert.deepEqual(out, { sealLoaded: false, late: 'expired' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
