// Compiles src/ (TypeScript) to dist/ (JavaScript with source maps) with esbuild, one output file per
// source file and the same folder depth, so every path a module resolves against import.meta.url
// (../../openapi/openapi.yaml, ../../../web/dist/, ../package.json) means the same file from dist/.
// The contract (openapi/openapi.yaml) is kept there as JSON too (src/http/openapi.ts says why).
// The pages' browser scripts (src/http/pages/<page>/assets/*.ts) are compiled for the browser instead,
// by src/http/pages/page-scripts.js, to the .js name the pages serve. Files that are not compiled
// TypeScript (CSS, SVG, plain-JS browser and worker files, the generated API types the SDK page
// serves) are copied beside the output.
//
// `node scripts/build.mjs` always builds; `--if-stale` builds only when src/ changed since the last
// build. Plain JavaScript, and the check only stats files (no reading, no hashing), so bin/formsign.js
// runs it before every command for a few milliseconds; esbuild is imported only when a build is due.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
export const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.source-stamp');
const SELF = fileURLToPath(import.meta.url);
// Read by src/http/openapi.ts; kept in dist/ as JSON (see there), so a change to it is a change to the build.
const OPENAPI = path.join(ROOT, 'openapi', 'openapi.yaml');

function walk(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

// The newest modification time and the number of files: an edited or added source is newer than
// the stamp, a deleted one changes the count. Checking out another commit touches what it changes.
function sourceStamp(files) {
  let newest = Math.max(fs.statSync(SELF).mtimeMs, fs.statSync(OPENAPI).mtimeMs);
  for (const f of files) newest = Math.max(newest, fs.statSync(f).mtimeMs);
  return `${files.length} ${newest}`;
}

const compiled = (f) => f.endsWith('.ts') && !f.endsWith('.d.ts');
const PAGE_SCRIPTS = path.join(SRC, 'http', 'pages', 'page-scripts.js');
// Entry points that exist only to load TypeScript through tsx; compiled code starts the JavaScript
// itself (pdf-pool.ts picks worker-job.js when it runs from dist/), so they are left out: a worker
// that still named one would fail to start rather than quietly need tsx.
const TSX_ONLY = new Set([path.join(SRC, 'pdf', 'pool', 'worker.mjs')]);

export async function build() {
  const started = Date.now();
  const files = walk(SRC, []);
  const stamp = sourceStamp(files);
  // Built aside and swapped in, so a process starting meanwhile never imports a half-written dist/.
  const tmp = `${DIST}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const esbuild = await import('esbuild');
  const { isPageScript, compilePageScript } = await import(PAGE_SCRIPTS);
  await esbuild.build({
    entryPoints: files.filter((f) => compiled(f) && !isPageScript(f)),
    outdir: tmp,
    outbase: SRC,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  await bundleEntry(esbuild, path.join(tmp, 'bundle'));
  for (const f of files.filter(isPageScript)) {
    const to = path.join(tmp, path.relative(SRC, f)).replace(/\.ts$/, '.js');
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, compilePageScript(esbuild, fs.readFileSync(f, 'utf8'), f));
  }
  for (const f of files.filter((f) => !compiled(f) && !TSX_ONLY.has(f))) {
    const to = path.join(tmp, path.relative(SRC, f));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(f, to);
  }
  const { parse } = await import('yaml');
  fs.writeFileSync(path.join(tmp, 'http', 'openapi.json'), JSON.stringify(parse(fs.readFileSync(OPENAPI, 'utf8'))));
  fs.writeFileSync(path.join(tmp, '.source-stamp'), stamp);
  // Two renames, not a delete and a rename: dist/ is missing for an instant, not for as long as a
  // recursive delete takes, so a process starting meanwhile (a test spawning the bin, a second command)
  // finds a whole build.
  const old = `${DIST}.${process.pid}.old`;
  try {
    fs.renameSync(DIST, old);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  try {
    fs.renameSync(tmp, DIST);
  } catch (error) {
    // Another process built and swapped in the same sources first.
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(STAMP)) throw error;
  }
  fs.rmSync(old, { recursive: true, force: true });
  return Date.now() - started;
}

/**
 * What bin/formsign.js runs: src/main.ts bundled with esbuild (packages left to node_modules), its
 * dynamic imports as chunks, into dist/bundle/. One process loads ~30 files instead of ~500, which
 * cuts a quarter of the CPU of a start or a CLI call (issue 36 item 3). A module that finds a file
 * relative to itself (import.meta.url: the contract, the dashboard, a worker thread's entry) gets the
 * URL its one-file-per-module build has in dist/, which the build above still writes, so every path
 * means the same file from the bundle as from dist/ and from src/.
 */
async function bundleEntry(esbuild, outdir) {
  const moduleUrl = {
    name: 'module-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        let text = await fs.promises.readFile(args.path, 'utf8');
        if (text.includes('import.meta.url') && args.path.startsWith(SRC + path.sep)) {
          const own = path.join(outdir, '..', path.relative(SRC, args.path)).replace(/\.ts$/, '.js');
          const rel = path.relative(outdir, own).split(path.sep).join('/');
          text = text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`);
        }
        return { contents: text, loader: 'ts' };
      });
    },
  };
  await esbuild.build({
    entryPoints: [path.join(SRC, 'main.ts')],
    bundle: true,
    splitting: true,
    // Packages stay in node_modules, but for the pure-JavaScript ones every command loads: kysely, zod
    // and prom-client are ~500 small files that node would open, parse and link one by one (a third of
    // a CLI call's time, issue 36 item 3); bundled, they are read with our chunks.
    plugins: [moduleUrl, externalExcept(BUNDLED_PACKAGES)],
    banner: { js: REQUIRE_BANNER },
    outdir,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
}

/**
 * A bundled CommonJS package (prom-client) requires node's modules; ESM output has no `require`, so each
 * chunk gets one. It resolves only what the bundle leaves out (node: modules, packages in node_modules),
 * which resolve the same from dist/bundle as from dist/.
 */
export const REQUIRE_BANNER = "import { createRequire as __formsignRequire } from 'node:module'; const require = __formsignRequire(import.meta.url);";

/** Packages bundled into dist/bundle (the rest are imported from node_modules at run time). */
const BUNDLED_PACKAGES = ['kysely', 'zod', 'prom-client', '@opentelemetry/api', 'tdigest', 'bintrees'];

/** An esbuild plugin: every bare import is external but those of `bundled` (and their subpaths). */
function externalExcept(bundled) {
  return {
    name: 'external-except',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || path.isAbsolute(args.path)) return undefined;
        if (args.kind === 'entry-point') return undefined;
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        return bundled.includes(name) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

export function isStale() {
  // A build shipped without its sources (the container image copies dist/, not src/) is what it is.
  if (!fs.existsSync(SRC)) return false;
  let built;
  try {
    built = fs.readFileSync(STAMP, 'utf8');
  } catch {
    return true;
  }
  return built !== sourceStamp(walk(SRC, []));
}

/**
 * Builds when src/ changed since the last build. Says so on stderr (stdout belongs to the command) to
 * a person at a terminal only: a script reading the command's stderr gets the command's lines alone.
 */
export async function buildIfStale() {
  if (!isStale()) return;
  const say = process.stderr.isTTY ? (line) => process.stderr.write(`${line}\n`) : () => undefined;
  say('formsign: compiling src/ → dist/…');
  const ms = await build();
  say(`formsign: compiled in ${(ms / 1000).toFixed(1)} s.`);
}

if (process.argv[1] === SELF) {
  if (process.argv.includes('--if-stale')) await buildIfStale();
  else process.stderr.write(`formsign: compiled src/ → dist/ in ${((await build()) / 1000).toFixed(1)} s.\n`);
}
