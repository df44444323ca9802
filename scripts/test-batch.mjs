// Runs several compiled test files (.test-build/, scripts/compile-tests.mjs) in one process, one after
// another, each as one top-level suite named for its file, so a file's tests, hooks, time and failures
// stay its own. Started by scripts/run-tests.ts, never by hand:
//
//   node --test-reporter=./scripts/test-batch-reporter.mjs --test-reporter-destination=R \
//        scripts/test-batch.mjs --limit MS --results R test/a.test.ts test/b.test.ts …
//
// Node 20's runner gives every file a process of its own (`--experimental-test-isolation=none` came in
// Node 22.8). Here the file is imported while the `node:test` functions it calls at its top level are
// recorded, and then replayed inside `describe(file)`: its top-level tests become the suite's tests
// and its top-level before/after hooks the suite's hooks, which run before and after its own tests
// exactly as a file's root hooks do in a process of its own.
//
// Files that change what the next file would see (scripts/test-isolation.ts has the rule the runner
// checks in the source first): after each file the process-wide state is compared with before it. A
// changed environment, global, working directory or process listener stops the batch there; the runner
// runs that file again in a process of its own and the rest in a new batch. Handles a file left open
// are reported with the file.
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const TEST_BUILD = path.join(ROOT, '.test-build');
export const MARK = '@@formsign-batch-file ';

const args = process.argv.slice(2);
const take = (flag) => {
  const at = args.indexOf(flag);
  return at < 0 ? undefined : args.splice(at, 2)[1];
};
const limitMs = Number(take('--limit') ?? 1_200_000);
// The batch's own lines go to R, the reporter's to R.report (the runner names both).
const resultsFile = take('--results');
const files = args;

// Output a test writes to stderr goes where its stdout goes, so the runner can give each file its own.
process.stderr.write = process.stdout.write.bind(process.stdout);

const nodeTest = createRequire(import.meta.url)('node:test');
const RECORDED = ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'];
const VARIANTS = ['skip', 'todo', 'only'];
const real = {};
let recording;
for (const name of RECORDED) {
  const fn = nodeTest[name];
  real[name] = fn;
  const wrap = (variant) =>
    function recorded(...a) {
      if (recording) {
        recording.push({ name, variant, args: a });
        return Promise.resolve();
      }
      return (variant ? fn[variant] : fn).apply(this, a);
    };
  const wrapped = wrap(undefined);
  for (const v of VARIANTS) if (typeof fn[v] === 'function') wrapped[v] = wrap(v);
  nodeTest[name] = wrapped;
}
// `import { test } from 'node:test'` in an ES module reads these exports: make it see the wrappers.
syncBuiltinESMExports();

/** user + system CPU seconds of this process and of the children it has reaped (/proc/self/stat). */
function cpuSeconds() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14–17 (utime, stime, cutime, cstime) are 11–14 after the name; clock ticks of 1/100 s.
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
  } catch {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  }
}

const LISTENED = ['exit', 'beforeExit', 'uncaughtException', 'unhandledRejection', 'warning', 'SIGINT', 'SIGTERM', 'SIGHUP', 'message'];

function snapshot() {
  const globals = new Map();
  // Values, not descriptors: Node defines many globals as getters that load on first use.
  for (const key of Reflect.ownKeys(globalThis)) globals.set(key, globalThis[key]);
  return {
    env: JSON.stringify(Object.entries(process.env).sort()),
    globals,
    cwd: process.cwd(),
    listeners: Object.fromEntries(LISTENED.map((e) => [e, process.listenerCount(e)])),
    stdoutWrite: process.stdout.write,
    handles: handleCounts(),
  };
}

function handleCounts() {
  const counts = {};
  for (const r of process.getActiveResourcesInfo()) counts[r] = (counts[r] ?? 0) + 1;
  return counts;
}

/**
 * What the file changed that the next file would see; empty when nothing. Globals the modules it
 * loaded added (a library's registry) are not changes; a global it replaced or removed is.
 */
function changes(before, after) {
  const out = [];
  if (before.env !== after.env) out.push('process.env');
  for (const [k, v] of before.globals) if (!Object.is(v, after.globals.get(k))) out.push(`globalThis.${String(k)}`);
  if (before.cwd !== after.cwd) out.push('the working directory');
  if (before.stdoutWrite !== after.stdoutWrite) out.push('process.stdout.write');
  return out;
}

/** Process listeners the file (or a library it loaded first) added and left: reported, not fatal. */
function addedListeners(before, after) {
  return LISTENED.filter((e) => after.listeners[e] > before.listeners[e]).map((e) => `${after.listeners[e] - before.listeners[e]} process '${e}' listener(s)`);
}

async function leftHandles(before) {
  // Sockets and timers a file closed may take a few turns to go.
  for (let i = 0; i < 10; i++) {
    const now = handleCounts();
    const extra = Object.entries(now).filter(([k, n]) => n > (before[k] ?? 0) && !/^(TTYWrap|PipeWrap|FSReqCallback|Worker|MessagePort)$/.test(k));
    if (extra.length === 0) return [];
    if (i === 9) return extra.map(([k, n]) => `${n - (before[k] ?? 0)} ${k}`);
    // A timer that holds the event loop: with `.unref()` here, a file whose last handle closed during
    // the wait left nothing to hold the loop, so the process ended in the middle of this await (exit 13,
    // "unsettled top-level await") with that file's result unwritten and the rest of the batch unrun.
    // That was the batches' "missing file" (fewer results than files, only when a file's handles were
    // still closing as it ended, hence only now and then).
    await new Promise((r) => setTimeout(r, 50));
  }
  return [];
}

const record = (line) => resultsFile && fs.appendFileSync(resultsFile, `${JSON.stringify(line)}\n`);

// Node's runner adds its own process listeners when the first test is declared; a root hook that does
// nothing makes it do so now, before the first file's state is taken.
real.before(() => undefined);
let finished = 0;
for (const file of files) {
  process.stdout.write(`\n${MARK}${file}\n`);
  const before = snapshot();
  const started = Date.now();
  const cpu = cpuSeconds();
  recording = [];
  let loadError;
  try {
    await import(pathToFileURL(path.join(TEST_BUILD, file.replace(/\.ts$/, '.js'))).href);
  } catch (error) {
    loadError = error;
  }
  const calls = recording;
  recording = undefined;
  await new Promise((r) => setTimeout(r, 0));
  await real.describe(file, { timeout: limitMs }, () => {
    if (loadError) {
      real.test('the file loads', () => {
        throw loadError;
      });
    }
    for (const c of calls) (c.variant ? real[c.name][c.variant] : real[c.name])(...c.args);
  });
  const after = snapshot();
  const changed = changes(before, after);
  const handles = [...(await leftHandles(before.handles)), ...addedListeners(before, after)];
  finished++;
  record({ kind: 'file', file, ms: Date.now() - started, cpu: cpuSeconds() - cpu, changed, handles });
  if (changed.length > 0) {
    process.stdout.write(`\nrun-tests: ${file} changed ${changed.join(', ')}: the batch stops here\n`);
    break;
  }
}
// Handles a file left open (a pool, a keep-alive socket) must not keep the batch alive: once the
// reporter (which runs behind the tests) has written every file's result, the batch ends.
// Up to a minute: on a loaded machine the reporter's stream can lag the tests by seconds.
for (let i = 0; i < 2400; i++) {
  const text = resultsFile && fs.existsSync(`${resultsFile}.report`) ? fs.readFileSync(`${resultsFile}.report`, 'utf8') : '';
  if (text.split('\n').filter((l) => l.startsWith('{"kind":"report"')).length >= finished) break;
  await new Promise((r) => setTimeout(r, 25));
}
process.exit();
