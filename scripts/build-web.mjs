// Builds the dashboard (web/ → web/dist) with Vite and writes Brotli and gzip copies of its assets,
// so the server sends them without compressing per request. Plain JavaScript, so `npm start` can run
// it in a few milliseconds: with --if-stale it only builds when web/'s sources (or the generated API
// types) changed since the last build, which it records in web/dist/.source-hash.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB = path.join(ROOT, 'web');
const DIST = path.join(WEB, 'dist');
const STAMP = path.join(DIST, '.source-hash');
const SOURCES = [path.join(WEB, 'src'), path.join(WEB, 'index.html'), path.join(WEB, 'vite.config.ts'), path.join(WEB, 'public'), path.join(ROOT, 'src', 'generated', 'api.d.ts'), path.join(ROOT, 'scripts', 'build-web.mjs')];

function files(p) {
  if (!fs.existsSync(p)) return [];
  if (!fs.statSync(p).isDirectory()) return [p];
  return fs.readdirSync(p).sort().flatMap((name) => files(path.join(p, name)));
}

function sourceHash() {
  const h = createHash('sha256');
  for (const file of SOURCES.flatMap(files)) h.update(path.relative(ROOT, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  return h.digest('hex');
}

function compressAssets() {
  const dir = path.join(DIST, 'assets');
  let raw = 0;
  let br = 0;
  for (const name of fs.readdirSync(dir)) {
    if (!/\.(js|mjs|css|svg|json|html)$/.test(name)) continue;
    const file = path.join(dir, name);
    const body = fs.readFileSync(file);
    const brotli = zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
    fs.writeFileSync(`${file}.br`, brotli);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
    raw += body.length;
    br += brotli.length;
  }
  return { raw, br };
}

const SELF = fileURLToPath(import.meta.url);

/** Builds web/dist; with `ifStale`, only when web/'s sources changed since the last build. */
export async function buildWeb({ ifStale = false } = {}) {
  const hash = sourceHash();
  if (ifStale && fs.existsSync(path.join(DIST, 'index.html')) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === hash) return;
  let vite;
  try {
    vite = await import('vite');
  } catch {
    // Installed without dev dependencies: the server runs and says at /dashboard how to build it.
    process.stderr.write('formsign: the dashboard is not built and Vite is not installed (npm install without --omit=dev builds it).\n');
    return;
  }
  const started = Date.now();
  process.stderr.write('formsign: building the dashboard (web/ → web/dist)…\n');
  await vite.build({ configFile: path.join(WEB, 'vite.config.ts'), logLevel: 'warn' });
  const { raw, br } = compressAssets();
  fs.writeFileSync(STAMP, hash);
  process.stderr.write(`formsign: dashboard built in ${((Date.now() - started) / 1000).toFixed(1)} s (${Math.round(raw / 1024)} KB of assets, ${Math.round(br / 1024)} KB with Brotli).\n`);
}

// `npm start` runs the check inside the server's own process (bin/formsign.js serve); run as a script
// (`npm run build:web`, the tests' set-up) it does the same in a process of its own.
if (process.argv[1] === SELF) await buildWeb({ ifStale: process.argv.includes('--if-stale') });
