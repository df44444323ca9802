// How long a person waits for Formsign (issues 22, 36 item 3), measured exactly as the README's
// commands run: `npm start` (npm, then bin/formsign.js, whose staleness checks of dist/ and web/dist
// run inside the server's own process) on an empty DATA_DIR (first start) and again (later start),
// until /healthz answers 200 and until /readyz answers 200 (since issue 35 item 5 the server listens
// before its start-up steps, so /healthz answers while start-up still runs; /readyz is when it
// serves); and `npm run formsign -- accounts list` until it exits.
//
// BENCH_START_BEFORE=/path/to/another/checkout (built: dist/ and web/dist/) measures that tree too,
// alternating run by run with this one, and reports the ratio this/before of each median: on a
// machine shared with others, only figures taken side by side compare.
// Wall-clock medians of BENCH_START_RUNS (5) runs each; not a timed test.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from '../scripts/build.mjs';
import { freePort } from './formsign-serve.js';
import { median } from './stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env['BENCH_START_RUNS'] ?? 5);
const BEFORE = process.env['BENCH_START_BEFORE'];

const status = (port: number, url: string): Promise<number> =>
  new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: url, timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
  });

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    // The server's process group: npm, its `sh -c` and the node under it.
    process.kill(-child.pid!, 'SIGTERM');
  });
}

const env = (dataDir: string, port?: number) => ({ PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? os.tmpdir(), DATA_DIR: dataDir, ...(port ? { PORT: String(port) } : {}), LOG_LEVEL: 'warn', LOG_FORMAT: 'json' });

/** Milliseconds from spawning `npm start` in `root` to /healthz 200 and to /readyz 200. */
async function timeStart(root: string, dataDir: string): Promise<{ health: number; ready: number }> {
  const port = await freePort();
  let stderr = '';
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], { cwd: root, env: env(dataDir, port), stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let health = 0;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start in ${root} exited ${child.exitCode}: ${stderr}`);
      if (performance.now() - started > 60_000) throw new Error(`npm start in ${root}: not ready after 60 s: ${stderr}`);
      if (!health && (await status(port, '/healthz')) === 200) health = performance.now() - started;
      if (health && (await status(port, '/readyz')) === 200) return { health, ready: performance.now() - started };
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    await stop(child);
  }
}

function timeCli(root: string, dataDir: string): number {
  const started = performance.now();
  const r = spawnSync('npm', ['run', '--silent', 'formsign', '--', 'accounts', 'list'], { cwd: root, env: env(dataDir), encoding: 'utf8' });
  const ms = performance.now() - started;
  if (r.status !== 0 || !r.stdout.includes('acct_')) throw new Error(`accounts list in ${root}: exit ${r.status}: ${r.stderr}${r.stdout}`);
  return ms;
}

interface Row { name: string; ours: number; target: string; unit: string }
type Series = Record<'firstHealth' | 'firstReady' | 'laterHealth' | 'laterReady' | 'cli', number[]>;

const series = (): Series => ({ firstHealth: [], firstReady: [], laterHealth: [], laterReady: [], cli: [] });

async function once(root: string, dir: string, into: Series): Promise<void> {
  const first = await timeStart(root, dir);
  const later = await timeStart(root, dir);
  into.firstHealth.push(first.health);
  into.firstReady.push(first.ready);
  into.laterHealth.push(later.health);
  into.laterReady.push(later.ready);
  into.cli.push(timeCli(root, dir));
}

const WHAT: Array<[keyof Series, string, string]> = [
  ['firstHealth', '`npm start`, first start (empty DATA_DIR) to /healthz 200', '< 1500 ms'],
  ['firstReady', '`npm start`, first start (empty DATA_DIR) to /readyz 200', '(reported)'],
  ['laterHealth', '`npm start`, later start to /healthz 200', '< 1000 ms'],
  ['laterReady', '`npm start`, later start to /readyz 200', '(reported)'],
  ['cli', '`npm run formsign -- accounts list`', '< 400 ms'],
];

export async function run(): Promise<Row[]> {
  // Measured on a current build, as after `npm install`: the staleness checks run, and find nothing to do.
  await buildIfStale();
  spawnSync(process.execPath, ['scripts/build-web.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-start-bench-'));
  const ours = series();
  const before = series();
  try {
    for (let i = 0; i < RUNS; i++) {
      // Alternating, so a change in the machine's load reaches both alike.
      if (BEFORE) await once(BEFORE, path.join(tmp, `before-${i}`), before);
      await once(ROOT, path.join(tmp, `run-${i}`), ours);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const runs = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ');
  const rows: Row[] = [];
  for (const [key, what, target] of WHAT) {
    const ratio = BEFORE ? `; before ${Math.round(median(before[key]))} ms (${runs(before[key])}), ratio ${(median(ours[key]) / median(before[key])).toFixed(2)}` : '';
    rows.push({ name: `${what} (median of ${ours[key].length}: ${runs(ours[key])}${ratio})`, ours: median(ours[key]), target, unit: 'ms' });
  }
  return rows;
}
