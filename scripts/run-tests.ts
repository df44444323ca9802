// The runner behind `npm test` and `npm run test:<group>`: checks that every test file is in exactly
// one group (scripts/test-groups.ts), compiles the tests once with esbuild (scripts/compile-tests.mjs:
// no tsx in any test process), runs each group's files in parallel, several files to a process where
// they may share one (scripts/test-isolation.ts has the rule; scripts/test-batch.mjs runs a batch),
// prints a file's output whole when its process ends, and ends with the failed files and the slowest
// ten. Each file's wall time and CPU time (user + system, the child processes it reaped included) are
// printed and kept in test-results/test-times.json and test-cpu.json.
//
//   node --import tsx scripts/run-tests.ts unit|integration|browser|all|check [--jobs N] [--alone] [file ...]
//
// `--alone` (or TEST_ALONE=1) gives every file a process of its own, as before batching.
// TEST_CPU_PROF=dir writes a V8 CPU profile of every test process (and its threads) into dir, to see
// where the tests' CPU goes (Node refuses --cpu-prof in NODE_OPTIONS).
//
// Why not `node --test --test-concurrency=N` over all files: Node 20's runner interleaves the files'
// output, reports no time per file and gives every file a fresh process, which cost ~46 % more CPU
// than running several files in one (measured on the integration group).
//
// A file that fails in a batch is run again in a process of its own, and that run decides: its batch
// output is printed with it, and the summary names it, so a file that only fails beside others (it
// leans on state another file left) is seen and fixed, and a true failure is reported against its file.
//
// Time limit: each file's tests have FILE_LIMIT_MS in all (Node's `--test-timeout` for a file in its
// own process, which on Node 20 limits the process as a whole; the file's suite's `timeout` in a
// batch). It is far above the slowest healthy file on a loaded machine, so a deadlock fails its file in
// bounded time and a slow file never does.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildIfStale } from './build.mjs';
import { compiledPath, compileTests } from './compile-tests.mjs';
import { classify, GROUPS, ROOT, testFiles, type GroupName } from './test-groups.js';
import { fileOwnProcessReason } from './test-isolation.js';

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
/**
 * A clean clone has no last run: there the files started in name order, nine to a batch (unknown
 * files are planned at UNKNOWN_MS), and a long file that started late ran on alone after the others
 * had finished. This seed (ms per file, committed) stands in for a file the last run did not time:
 * wall times of a full run scaled to the reference machine (2 cores, idle). It only orders and
 * batches; a stale entry costs balance, never a result.
 */
const SEED_TIMES_FILE = path.join(ROOT, 'scripts', 'test-times.seed.json');
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
  /** What the runner saw besides pass or fail (run alone and why, state a batched file changed). */
  notes: string[];
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

/** A process the runner started: its exit, wall time, CPU seconds (with children) and output. */
interface Ran {
  code: number | null;
  signal: string | null;
  ms: number;
  cpu: number;
  output: string;
}

const PROFILE_ARGS = process.env.TEST_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.TEST_CPU_PROF)}`] : [];

function runProcess(nodeArgs: string[], limitMs: number, env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
  const args = [...PROFILE_ARGS, ...nodeArgs];
  const started = Date.now();
  const cpuFile = GNU_TIME ? path.join(CPU_DIR, `${cpuFiles++}.txt`) : undefined;
  const opts = { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'] };
  const child = cpuFile ? spawn(GNU_TIME!, ['-f', '%U %S', '-o', cpuFile, process.execPath, ...args], opts) : spawn(process.execPath, args, opts);
  const chunks: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => chunks.push(d));
  child.stderr.on('data', (d: Buffer) => chunks.push(d));
  // Node's runner ends a timed-out file itself; this is for a runner that cannot.
  const backstop = setTimeout(() => {
    chunks.push(Buffer.from(`\nrun-tests: still running a minute past its limit: killed\n`));
    // Under GNU time the test process is time's child: kill it too, else it outlives time.
    if (cpuFile && child.pid !== undefined) killChildrenOf(child.pid);
    child.kill('SIGKILL');
  }, limitMs + 60_000);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(backstop);
      resolve({ code, signal, ms: Date.now() - started, cpu: readCpu(cpuFile), output: Buffer.concat(chunks).toString() });
    });
  });
}

/** One file in a process of its own, under Node's own runner. */
async function runAlone(file: string): Promise<FileResult> {
  const args = ['--enable-source-maps', '--test', `--test-timeout=${FILE_LIMIT_MS}`, '--test-force-exit', '--test-reporter=spec', compiledPath(file)];
  const r = await runProcess(args, FILE_LIMIT_MS);
  return { file, ok: r.code === 0, exit: String(r.code ?? r.signal), ms: r.ms, cpu: r.cpu, output: r.output, notes: [] };
}

const MARK = '@@formsign-batch-file ';
const FAILED_IN_BATCH = 'failed in a batch';
/**
 * A batch's environment: the runner's as it is when the batch starts (FORMSIGN_TEST_RUN is set below,
 * after this module is loaded), plus FORMSIGN_TEST_SHARED_PDF_POOL, with which test/harness.ts gives
 * every harness of the process one PDF pool. Made at spawn time: a copy made at load lacked the run's
 * id, so batched files dropped their PostgreSQL schemas while other files' migrators were reading the
 * catalog (the "relation t_<pid>_….kysely_migration does not exist" flake; test/harness.ts now refuses
 * a batch without the id).
 */
const batchEnv = (): NodeJS.ProcessEnv => ({ ...process.env, FORMSIGN_TEST_SHARED_PDF_POOL: '1' });

interface BatchOutcome {
  results: FileResult[];
  /** Files the batch did not reach (it stopped at a file that changed process-wide state, or died). */
  unreached: string[];
  /** Files the batch started but gave no whole result for (it died, or its reporter fell behind): run alone. */
  noResult: string[];
  cpu: number;
}

/** Several files in one process (scripts/test-batch.mjs), each judged on its own. */
async function runBatch(files: string[]): Promise<BatchOutcome> {
  const results = path.join(CPU_DIR, `batch-${cpuFiles++}.jsonl`);
  const args = ['--enable-source-maps', '--test-reporter', path.join(ROOT, 'scripts', 'test-batch-reporter.mjs'), '--test-reporter-destination', `${results}.report`, path.join(ROOT, 'scripts', 'test-batch.mjs'), '--limit', String(FILE_LIMIT_MS), '--results', results, ...files];
  const r = await runProcess(args, FILE_LIMIT_MS * files.length, batchEnv());
  const lines = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : []);
  const ends = new Map(lines(results).map((l) => [l.file as string, l as { ms: number; cpu: number; changed: string[]; handles: string[] }]));
  const reports = new Map(lines(`${results}.report`).map((l) => [l.file as string, l as { ok: boolean; counts: Record<string, number>; output: string }]));
  fs.rmSync(results, { force: true });
  fs.rmSync(`${results}.report`, { force: true });
  // What each file wrote itself (console output, a server's log), between the batch's marks.
  const own = new Map<string, string>();
  for (const part of r.output.split(`\n${MARK}`).slice(1)) {
    const nl = part.indexOf('\n');
    own.set(part.slice(0, nl), part.slice(nl + 1));
  }
  const out: BatchOutcome = { results: [], unreached: [], noResult: [], cpu: r.cpu };
  // Exit 13 is Node's "unsettled top-level await": the event loop emptied while the batch still waited.
  const how = r.code === 13 ? '13: the event loop emptied while the batch was waiting, a bug in scripts/test-batch.mjs' : String(r.code ?? r.signal);
  for (const file of files) {
    const end = ends.get(file);
    const report = reports.get(file);
    if (!end || !report) {
      if (own.has(file)) out.noResult.push(file);
      else out.unreached.push(file);
      continue;
    }
    const notes = [];
    if (end.changed.length > 0) notes.push(`changed ${end.changed.join(', ')} (the rest of its batch ran in a new process; mark it \`// test-runner: own-process\` or restore what it changes)`);
    if (end.handles.length > 0) notes.push(`left open: ${end.handles.join(', ')}`);
    const counts = Object.entries(report.counts).map(([k, n]) => `ℹ ${k} ${n}`).join('\n');
    out.results.push({ file, ok: report.ok, exit: report.ok ? '0' : '1', ms: end.ms, cpu: end.cpu, output: `${own.get(file) ?? ''}${report.output}${counts}\n`, notes });
  }
  for (const file of out.noResult) {
    out.results.push({ file, ok: false, exit: String(r.code ?? r.signal), ms: r.ms, cpu: Number.NaN, output: `${own.get(file) ?? ''}\nrun-tests: the batch process (exit ${how}) gave no whole result for this file\n`, notes: [] });
  }
  return out;
}

/** A passing file's counts; TEST_VERBOSE=1 prints its whole spec output. */
function passedSummary(output: string): string {
  return output
    .split('\n')
    .filter((l) => /^ℹ (tests|pass|fail|cancelled|skipped) /.test(l))
    .map((l) => `   ${l}\n`)
    .join('');
}

// A batch is cut at this much of last run's wall time, or this many files: short enough that the
// group's slots end together, long enough that a process's start is paid for many files.
const BATCH_MS = Number(process.env.TEST_BATCH_MS ?? 90_000);
const BATCH_FILES = Number(process.env.TEST_BATCH_FILES ?? 12);
const UNKNOWN_MS = 10_000;

async function runGroup(name: GroupName, files: string[], jobs: number, times: Record<string, number>, alone: boolean) {
  const queue = [...files].sort((a, b) => (times[b] ?? Infinity) - (times[a] ?? Infinity) || a.localeCompare(b));
  const ownProcess = new Map<string, string>();
  for (const f of files) {
    const why = alone ? 'every file alone (--alone)' : fileOwnProcessReason(ROOT, f);
    if (why) ownProcess.set(f, why);
  }
  const results: FileResult[] = [];
  let cpu = 0;
  const started = Date.now();
  process.stdout.write(`\n▶ ${name}: ${files.length} files, ${jobs} processes at a time${alone ? ', each file alone' : `, ${files.length - ownProcess.size} in batches, ${ownProcess.size} alone`}\n`);
  const print = (r: FileResult) => {
    results.push(r);
    // A file that failed in its batch is printed whole even when its run alone passed: what failed
    // beside other files is shown, never hidden behind the second run's pass.
    const failedInBatch = r.notes.some((n) => n.startsWith(FAILED_IN_BATCH));
    const body = r.ok && !failedInBatch && !process.env.TEST_VERBOSE ? passedSummary(r.output) : r.output;
    const notes = r.notes.map((n) => `   ⚠ ${n}\n`).join('');
    process.stdout.write(`\n── ${r.ok ? '✔' : '✖'} ${r.file} (${(r.ms / 1000).toFixed(1)} s, CPU ${r.cpu.toFixed(1)} s)\n${body}${notes}`);
  };
  const alonePrinting = async (file: string, notes: string[], before = '') => {
    const r = await runAlone(file);
    cpu += r.cpu;
    r.notes.push(...notes);
    if (before) r.output = `${before}\n── the same file in a process of its own:\n${r.output}`;
    print(r);
  };
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if (ownProcess.has(file)) {
        await alonePrinting(file, [`ran alone: ${ownProcess.get(file)}`]);
        continue;
      }
      const batch = [file];
      let planned = times[file] ?? UNKNOWN_MS;
      while (batch.length < BATCH_FILES && planned < BATCH_MS) {
        const i = queue.findIndex((f) => !ownProcess.has(f));
        if (i < 0) break;
        const [next] = queue.splice(i, 1);
        batch.push(next!);
        planned += times[next!] ?? UNKNOWN_MS;
      }
      const outcome = await runBatch(batch);
      cpu += outcome.cpu;
      if (outcome.results.length === 0) {
        // The batch ended before its first file's result (it could not start): that file alone, the
        // rest again, so a batch that cannot run never loops.
        const [first, ...rest] = outcome.unreached;
        queue.unshift(...rest);
        if (first !== undefined) await alonePrinting(first, [`${FAILED_IN_BATCH} (its batch ended before any result); the run in a process of its own decides`]);
        continue;
      }
      // Not reached: back to the front of the queue, to run in a new batch.
      queue.unshift(...outcome.unreached);
      for (const r of outcome.results) {
        if (r.ok) print(r);
        else await alonePrinting(r.file, [`${FAILED_IN_BATCH} (its output there is printed first); the run in a process of its own decides`], r.output);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
  // Every file has a result, or the run fails naming it: a file is never dropped silently.
  const seen = new Set(results.map((r) => r.file));
  for (const file of files) if (!seen.has(file)) print({ file, ok: false, exit: 'none', ms: 0, cpu: Number.NaN, output: 'run-tests: this file has no result (a bug in the runner)\n', notes: [] });
  return { name, results, ms: Date.now() - started, cpu };
}

function readJson(file: string): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

function usage(): never {
  process.stderr.write('usage: run-tests.ts unit|integration|browser|all|check [--jobs N] [--alone] [file ...]\n');
  process.exit(2);
}

const argv = process.argv.slice(2);
const jobsAt = argv.indexOf('--jobs');
const jobsArg = jobsAt >= 0 ? Number(argv.splice(jobsAt, 2)[1]) : undefined;
if (jobsArg !== undefined && !(jobsArg >= 1)) usage();
// Batches are the default. The "missing file" that kept them opt-in for a while (a batch reporting
// fewer results than files, now and then) was scripts/test-batch.mjs ending with exit 13 while it
// polled for a file's open handles on an unref'd timer; that file's result and the rest of its batch
// were lost. Fixed there; a batch that still gives no result for a file has that file run alone, and a
// file with no result at all fails the run by name (runGroup).
const aloneAt = argv.indexOf('--alone');
if (aloneAt >= 0) argv.splice(aloneAt, 1);
const batchAt = argv.indexOf('--batch'); // The default; accepted for the scripts that still pass it.
if (batchAt >= 0) argv.splice(batchAt, 1);
const alone = aloneAt >= 0 || process.env.TEST_ALONE === '1';
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

// The tests import src/ compiled (dist/, as the child processes they start do) and themselves compiled
// (.test-build/): both brought up to date here, once for the run.
await buildIfStale();
await compileTests();

const cores = Number(process.env.TEST_CORES ?? os.availableParallelism());
const times = { ...readJson(SEED_TIMES_FILE), ...readJson(TIMES_FILE) };
const names: GroupName[] = which === 'all' ? ['unit', 'integration', 'browser'] : [which as GroupName];
const runs = [];
const started = Date.now();
for (const name of names) {
  const files = only.length > 0 ? groups[name].filter((f) => only.includes(f)) : groups[name];
  if (files.length > 0) runs.push(await runGroup(name, files, jobsArg ?? Number(process.env.TEST_JOBS ?? JOBS[name](cores)), times, alone));
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
for (const r of runs) out.push(`  ${r.name}: ${r.results.length} files in ${seconds(r.ms)} (CPU ${r.cpu.toFixed(1)} s), ${r.results.filter((x) => !x.ok).length} failed`);
out.push(`  all: ${all.length} files in ${seconds(Date.now() - started)}`);
const noted = all.filter((r) => r.ok && r.notes.some((n) => !n.startsWith('ran alone')));
if (noted.length > 0) out.push('', '── files to look at (they passed)', ...noted.map((r) => `  ⚠ ${r.file}: ${r.notes.join('; ')}`));
if (failed.length > 0) out.push('', '── failed files', ...failed.map((r) => `  ✖ ${r.file} (exit ${r.exit})`));
process.stdout.write(`${out.join('\n')}\n`);
fs.rmSync(CPU_DIR, { recursive: true, force: true });
process.exitCode = failed.length > 0 ? 1 : 0;
