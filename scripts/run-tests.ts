// The runner behind `npm test` and `npm run test:<group>`: checks that every test file is in exactly
// one group (scripts/test-groups.ts), runs each group's files in parallel, each file in its own process
// under Node's own runner, prints a file's output whole when it ends, and ends with the failed files
// and the slowest ten. Each file's wall time and CPU time (user + system, its child processes included)
// are printed and kept in test-results/test-times.json and test-cpu.json.
//
//   node --import tsx scripts/run-tests.ts unit|integration|browser|all|check [--jobs N] [file ...]
//
// Why not `node --test --test-concurrency=N` over all files: Node 20's runner interleaves the files'
// output and reports no time per file.
//
// Time limit: Node's `--test-timeout`, which on Node 20 limits each test file's process as a whole,
// not each test (checked with a hung test: the file fails "test timed out after N ms", its finished
// tests keep their results, the other files run on). FILE_LIMIT_MS is far above the slowest healthy
// file on a loaded machine, so a deadlock fails its file in bounded time and a slow file never does.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { classify, GROUPS, ROOT, testFiles, type GroupName } from './test-groups.js';

/**
 * Files at once per group, on `cores` cores. Unit files are CPU-bound. Integration files wait on
 * PostgreSQL, fsyncs, child processes and timers much of the time, so one more than the cores keeps
 * the CPU busy. A browser file drives a Chromium of several processes besides its server, and waits on
 * it and on its server in turn much of the time: one per core (two on two cores) keeps both busy.
 */
const JOBS: Record<GroupName, (cores: number) => number> = { unit: (c) => c, integration: (c) => c + 1, browser: (c) => Math.max(1, c) };

// test/cli/operator-cli.test.ts, healthy, ran past 10 minutes at a load of 27 on 2 cores (it starts the
// CLI some thirty times); 20 minutes still ends a deadlock, which is what this limit is for.
const FILE_LIMIT_MS = Number(process.env.TEST_FILE_TIMEOUT_MS ?? 1_200_000);

/** The last run's time per file: the slowest files start first, so the run ends sooner. */
const TIMES_FILE = path.join(ROOT, 'test-results', 'test-times.json');
/** The last run's CPU seconds per file (user + system, with the children it reaped). */
const CPU_TIMES_FILE = path.join(ROOT, 'test-results', 'test-cpu.json');

interface FileResult {
  file: string;
  ok: boolean;
  exit: string;
  ms: number;
  /** CPU seconds (user + system) of the file's process and the children it waited for; NaN if unknown. */
  cpu: number;
  output: string;
}

// Wall time on a machine shared with others says little; CPU time is what a change to the tests cuts.
// GNU time reports it for the file's process and every child process it reaped (servers, Chromium).
const GNU_TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const CPU_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-cpu-'));
let cpuFiles = 0;

function readCpu(file: string | undefined): number {
  if (!file) return Number.NaN;
  try {
    const m = /^([\d.]+) ([\d.]+)$/m.exec(fs.readFileSync(file, 'utf8'));
    return m ? Number(m[1]) + Number(m[2]) : Number.NaN;
  } catch {
    return Number.NaN;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

function killChildrenOf(pid: number): void {
  try {
    for (const c of fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) process.kill(Number(c), 'SIGKILL');
  } catch {
    // Gone already, or no /proc: nothing to kill.
  }
}

function runFile(file: string): Promise<FileResult> {
  const started = Date.now();
  const args = ['--enable-source-maps', '--import', 'tsx', '--test', `--test-timeout=${FILE_LIMIT_MS}`, '--test-force-exit', '--test-reporter=spec', file];
  const cpuFile = GNU_TIME ? path.join(CPU_DIR, `${cpuFiles++}.txt`) : undefined;
  const child = cpuFile
    ? spawn(GNU_TIME!, ['-f', '%U %S', '-o', cpuFile, process.execPath, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => chunks.push(d));
  child.stderr.on('data', (d: Buffer) => chunks.push(d));
  // Node's runner ends a timed-out file itself; this is for a runner that cannot.
  const backstop = setTimeout(() => {
    chunks.push(Buffer.from(`\nrun-tests: ${file} still running a minute past its limit: killed\n`));
    // Under GNU time the file's process is time's child: kill it too, else it outlives time.
    if (cpuFile && child.pid !== undefined) killChildrenOf(child.pid);
    child.kill('SIGKILL');
  }, FILE_LIMIT_MS + 60_000);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(backstop);
      resolve({ file, ok: code === 0, exit: String(code ?? signal), ms: Date.now() - started, cpu: readCpu(cpuFile), output: Buffer.concat(chunks).toString() });
    });
  });
}

/** A passing file's counts; TEST_VERBOSE=1 prints its whole spec output. */
function passedSummary(output: string): string {
  return output
    .split('\n')
    .filter((l) => /^ℹ (tests|pass|fail|cancelled|skipped) /.test(l))
    .map((l) => `   ${l}\n`)
    .join('');
}

async function runGroup(name: GroupName, files: string[], jobs: number, times: Record<string, number>) {
  const queue = [...files].sort((a, b) => (times[b] ?? Infinity) - (times[a] ?? Infinity) || a.localeCompare(b));
  const results: FileResult[] = [];
  const started = Date.now();
  process.stdout.write(`\n▶ ${name}: ${files.length} files, ${jobs} at a time\n`);
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const r = await runFile(file);
      results.push(r);
      const body = r.ok && !process.env.TEST_VERBOSE ? passedSummary(r.output) : r.output;
      process.stdout.write(`\n── ${r.ok ? '✔' : '✖'} ${file} (${(r.ms / 1000).toFixed(1)} s, CPU ${r.cpu.toFixed(1)} s)\n${body}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
  return { name, results, ms: Date.now() - started };
}

function readJson(file: string): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

function usage(): never {
  process.stderr.write('usage: run-tests.ts unit|integration|browser|all|check [--jobs N] [file ...]\n');
  process.exit(2);
}

const argv = process.argv.slice(2);
const jobsAt = argv.indexOf('--jobs');
const jobsArg = jobsAt >= 0 ? Number(argv.splice(jobsAt, 2)[1]) : undefined;
if (jobsArg !== undefined && !(jobsArg >= 1)) usage();
const [which = 'all', ...only] = argv;
const isGroup = (w: string): w is GroupName => w in GROUPS;
if (which !== 'all' && which !== 'check' && !isGroup(which)) usage();

let groups: Record<GroupName, string[]>;
try {
  groups = classify(testFiles());
} catch (error) {
  process.stderr.write(`run-tests: ${(error as Error).message}\n`);
  process.exit(1);
}
if (which === 'check') {
  for (const [g, files] of Object.entries(groups)) process.stdout.write(`${g}: ${files.length} files\n`);
  process.exit(0);
}

// The files' PostgreSQL schemas carry this run's id and are dropped here once every file has ended
// (test/harness.ts says why not by each file); a run killed half-way leaves its schemas, which the
// next run's drop does not touch (another run may be using its own at that moment).
const RUN_ID = randomBytes(4).toString('hex');
process.env.FORMSIGN_TEST_RUN = RUN_ID;

async function dropRunSchemas(): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' });
  try {
    await client.connect();
    const { rows } = await client.query<{ nspname: string }>(`select nspname from pg_namespace where nspname like $1`, [`t\\_${RUN_ID}\\_%`]);
    for (const { nspname } of rows) await client.query(`drop schema "${nspname}" cascade`);
  } catch (error) {
    process.stderr.write(`run-tests: could not drop this run's PostgreSQL schemas: ${(error as Error).message}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const cores = Number(process.env.TEST_CORES ?? os.availableParallelism());
const times = readJson(TIMES_FILE);
const names: GroupName[] = which === 'all' ? ['unit', 'integration', 'browser'] : [which as GroupName];
const runs = [];
const started = Date.now();
for (const name of names) {
  const files = only.length > 0 ? groups[name].filter((f) => only.includes(f)) : groups[name];
  if (files.length > 0) runs.push(await runGroup(name, files, jobsArg ?? Number(process.env.TEST_JOBS ?? JOBS[name](cores)), times));
}
const all = runs.flatMap((r) => r.results);
if (all.length === 0) {
  process.stderr.write(`run-tests: no test file of ${which} matches ${only.join(' ')}\n`);
  process.exit(1);
}
if (names.some((n) => n !== 'unit')) await dropRunSchemas();
// Files the test files share within this run (test/shared/service-certificate.ts) are named for it.
for (const f of fs.readdirSync(os.tmpdir())) if (f.startsWith(`formsign-test-${RUN_ID}-`)) fs.rmSync(path.join(os.tmpdir(), f), { recursive: true, force: true });
for (const r of all) times[r.file] = r.ms;
fs.mkdirSync(path.dirname(TIMES_FILE), { recursive: true });
fs.writeFileSync(TIMES_FILE, `${JSON.stringify(times, null, 2)}\n`);

const cpuTimes = readJson(CPU_TIMES_FILE);
for (const r of all) if (Number.isFinite(r.cpu)) cpuTimes[r.file] = r.cpu;
fs.writeFileSync(CPU_TIMES_FILE, `${JSON.stringify(cpuTimes, null, 2)}\n`);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const failed = all.filter((r) => !r.ok);
const out = ['', '── slowest files (wall, CPU)'];
for (const r of [...all].sort((a, b) => b.ms - a.ms).slice(0, 10)) out.push(`  ${seconds(r.ms).padStart(8)}  ${`${r.cpu.toFixed(1)} s`.padStart(8)}  ${r.file}`);
out.push('', '── groups');
for (const r of runs) out.push(`  ${r.name}: ${r.results.length} files in ${seconds(r.ms)} (CPU ${r.results.reduce((t, x) => t + x.cpu, 0).toFixed(1)} s), ${r.results.filter((x) => !x.ok).length} failed`);
out.push(`  all: ${all.length} files in ${seconds(Date.now() - started)}`);
if (failed.length > 0) out.push('', '── failed files', ...failed.map((r) => `  ✖ ${r.file} (exit ${r.exit})`));
process.stdout.write(`${out.join('\n')}\n`);
fs.rmSync(CPU_DIR, { recursive: true, force: true });
process.exitCode = failed.length > 0 ? 1 : 0;
