// Formsign as `npm start` runs it (`node --import tsx src/main.ts serve`: JSON logs at the default
// level, the worker inline), on a store the benchmark seeds first through the domain. Logs go to
// /dev/null; the banner and any error on stderr are kept for the failure message.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { createAccount, setAccountLimits } from '../src/domain/accounts/manage-accounts.js';
import { createApiKey } from '../src/domain/keys/manage-keys.js';
import type { Partition } from '../src/lib/partition.js';
import { processStore, type Deps } from '../test/outbox/support/processes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Per-minute and monthly limits high enough that no benchmark meets them. */
export const BENCH_LIMIT = 1_000_000_000;
const HAS_TASKSET = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

export interface Served<T> {
  base: string;
  /** The store's DATA_DIR (its SQLite file is formsign.sqlite there). */
  dataDir: string;
  key: string;
  partition: Partition;
  seeded: T;
  /** The benchmark's own handle on the same store (reads only while the server runs). */
  deps: Deps;
  /**
   * Stops the server and starts it again on the same store and port, with `env` over the usual
   * environment (LOG_LEVEL included): one seeded store measured in several configurations.
   */
  restart(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
  /** CPU time (user + system) the server process has used so far, in ms (Linux /proc; 0 elsewhere). */
  cpuMs(): number;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Seeds an account, a test key and whatever `seed` adds, then starts the server (pinned to `cpu` with
 * taskset when given) and resolves once /readyz answers 200.
 */
export async function serveFormsign<T>(o: { prefix: string; dialect?: string; cpu?: string; env?: Record<string, string>; seed: (deps: Deps, p: Partition) => Promise<T> }): Promise<Served<T>> {
  // The prefix names a PostgreSQL database too: letters, digits and underscores only.
  const store = await processStore(o.dialect === 'postgres' ? 'postgres' : 'sqlite', o.prefix.replace(/\W/g, '_'), { LOG_LEVEL: 'silent', ...o.env });
  const account = await createAccount(store.deps.domain, { name: 'Bench Rentals', plan: 'paid' });
  const partition: Partition = { accountId: account.id, mode: 'test' };
  // The limit checks run on every request as in production, but a benchmark's thousands of calls a
  // minute are not refused (the defaults allow 60 sends a minute and 10,000 calls a month).
  await setAccountLimits(store.deps.domain, account.id, { monthly: BENCH_LIMIT, perMinute: BENCH_LIMIT });
  const key = (await createApiKey(store.deps.domain, { accountId: account.id, mode: 'test' })).key;
  const seeded = await o.seed(store.deps, partition);
  const port = await freePort();
  // The store's env minus the quiet log level: the server logs as `npm start` does (info, JSON).
  const env: NodeJS.ProcessEnv = { ...process.env, ...store.env, ...o.env, PORT: String(port), HOST: '127.0.0.1', BASE_URL: `http://127.0.0.1:${port}`, LOG_FORMAT: 'json' };
  delete env['LOG_LEVEL'];
  delete env['WORKER'];
  const base = `http://127.0.0.1:${port}`;
  let server = await startServer({ ...env }, o.cpu, base, 'w');
  return {
    base,
    dataDir: store.env['DATA_DIR']!,
    key,
    partition,
    seeded,
    deps: store.deps,
    async restart(extra = {}) {
      await server.stop();
      server = await startServer({ ...env, ...extra }, o.cpu, base, 'a');
    },
    async stop() {
      await server.stop();
      await store.drop();
    },
    cpuMs: () => server.cpuMs(),
  };
}

/** Spawns `src/main.ts serve` with `env` and resolves once /readyz answers 200. */
async function startServer(env: NodeJS.ProcessEnv, cpu: string | undefined, base: string, logMode: 'w' | 'a'): Promise<{ stop(): Promise<void>; cpuMs(): number }> {
  // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=…" adds node flags NODE_OPTIONS does not allow (bench/profile.ts).
  const nodeArgs = (env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  const args = [...nodeArgs, '--import', 'tsx', 'src/main.ts', 'serve'];
  // BENCH_SERVER_LOG=<file> keeps the server's log lines there instead (to see why a call failed).
  const logTo = process.env['BENCH_SERVER_LOG'];
  const stdout = logTo ? fs.openSync(logTo, logMode) : 'ignore';
  const child = cpu && HAS_TASKSET
    ? spawn('taskset', ['-c', cpu, process.execPath, ...args], { cwd: ROOT, env, stdio: ['ignore', stdout, 'pipe'] })
    : spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', stdout, 'pipe'] });
  if (typeof stdout === 'number') fs.closeSync(stdout);
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    if (stderr.length < 16_384) stderr += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const until = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`formsign serve exited with ${child.exitCode}: ${stderr}`);
    // /readyz: serve listens (and /healthz answers) before its start-up steps are done.
    const ok = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`formsign serve was not ready (/readyz) within 90 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    cpuMs() {
      // taskset execs node in place, so the child's pid is the server's.
      const stat = fs.existsSync(`/proc/${child.pid}/stat`) ? fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8') : '';
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
