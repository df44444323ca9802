// How long a person waits for Formsign (issue 22): a first start (empty DATA_DIR) and a later start
// until /healthz answers 200, and `formsign accounts list` until it exits. Each is run the way a person
// runs it: `npm start`'s command line (the dashboard's and the compiled server's staleness checks,
// then dist/main.js through bin/formsign.js) and the bin. The same through tsx, as before the build
// existed, is reported beside it, and `npm start` itself once (npm's own start-up added).
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
const NPM_START = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start']!;

interface Way { name: string; serve: string[]; cli: string[] }
const COMPILED: Way = { name: 'compiled (npm start / bin/formsign.js)', serve: ['sh', '-c', NPM_START], cli: [process.execPath, 'bin/formsign.js'] };
const TSX: Way = { name: 'tsx (before the build)', serve: ['sh', '-c', `node scripts/build-web.mjs --if-stale && node --import tsx src/main.ts serve`], cli: [process.execPath, '--import', 'tsx', 'src/main.ts'] };

const healthy = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    // The server's process group: `sh -c` and the node under it.
    process.kill(-child.pid!, 'SIGTERM');
  });
}

/** Milliseconds from spawning `command` to /healthz answering 200. */
async function timeStart(command: string[], dataDir: string): Promise<number> {
  const port = await freePort();
  const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? os.tmpdir(), DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', LOG_FORMAT: 'json' };
  let stderr = '';
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    while (!(await healthy(port))) {
      if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited ${child.exitCode}: ${stderr}`);
      if (performance.now() - started > 60_000) throw new Error(`${command.join(' ')}: no /healthz after 60 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return performance.now() - started;
  } finally {
    await stop(child);
  }
}

function timeCli(command: string[], dataDir: string): number {
  const started = performance.now();
  const r = spawnSync(command[0]!, [...command.slice(1), 'accounts', 'list'], { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', DATA_DIR: dataDir }, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (r.status !== 0 || !r.stdout.includes('acct_')) throw new Error(`accounts list: exit ${r.status}: ${r.stderr}${r.stdout}`);
  return ms;
}

interface Row { name: string; ours: number; target: string; unit: string }

async function measure(way: Way, targets: { first: string; later: string; cli: string }): Promise<Row[]> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-start-bench-'));
  const first: number[] = [];
  const later: number[] = [];
  const cli: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const dir = path.join(tmp, `run-${i}`);
      first.push(await timeStart(way.serve, dir));
      later.push(await timeStart(way.serve, dir));
      cli.push(timeCli(way.cli, dir));
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const row = (what: string, xs: number[], target: string): Row => ({ name: `${way.name}: ${what} (median of ${xs.length}: ${xs.map((x) => Math.round(x)).join(', ')})`, ours: median(xs), target, unit: 'ms' });
  return [row('first start (empty DATA_DIR) to /healthz 200', first, targets.first), row('later start to /healthz 200', later, targets.later), row('`formsign accounts list`', cli, targets.cli)];
}

export async function run(): Promise<Row[]> {
  // Measured on a current build, as after `npm install`: the staleness checks run, and find nothing to do.
  await buildIfStale();
  spawnSync(process.execPath, ['scripts/build-web.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const rows = await measure(COMPILED, { first: '< 1500 ms', later: '< 1000 ms', cli: '< 500 ms' });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-start-bench-npm-'));
  try {
    const npm: number[] = [];
    for (let i = 0; i < RUNS; i++) npm.push(await timeStart(['npm', 'start', '--silent'], path.join(tmp, `run-${i}`)));
    rows.push({ name: `\`npm start\` itself (npm's start-up added), first start (median of ${npm.length}: ${npm.map((x) => Math.round(x)).join(', ')})`, ours: median(npm), target: '(reported)', unit: 'ms' });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  rows.push(...(await measure(TSX, { first: '(reported: before)', later: '(reported: before)', cli: '(reported: before)' })));
  return rows;
}
