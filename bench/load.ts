import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Server and load generator on different cores (taskset), same connections and duration for every
// target in a run, so ratios compare like with like on this machine at this moment.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const HAS_TASKSET = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
export const SERVER_CPU = '0';
export const LOAD_CPU = '1';

export interface Started<T> {
  info: T;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startServer<T>(script: string, env: Record<string, string> = {}): Promise<Started<T>> {
  const args = ['--import', 'tsx', script];
  const child = HAS_TASKSET
    ? spawn('taskset', ['-c', SERVER_CPU, process.execPath, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<T>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const line = buf.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as T);
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    info,
    child,
    stop: () =>
      new Promise((r) => {
        child.once('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSec: number;
}

export interface LoadResult {
  requestsPerSec: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
}

/** Runs autocannon in its own process on the load core and reads its JSON summary. */
export function load(o: LoadOptions): LoadResult {
  const bin = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url));
  const args = [bin, '-j', '-c', String(o.connections), '-d', String(o.durationSec), '-m', o.method ?? 'GET'];
  for (const [k, v] of Object.entries(o.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (o.body !== undefined) args.push('-b', o.body);
  args.push(o.url);
  const cmd = HAS_TASKSET ? 'taskset' : process.execPath;
  const r = spawnSync(cmd, HAS_TASKSET ? ['-c', LOAD_CPU, process.execPath, ...args] : args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`autocannon failed: ${r.stderr}`);
  const j = JSON.parse(r.stdout) as { requests: { average: number }; latency: { p99: number }; non2xx: number; errors: number };
  return { requestsPerSec: j.requests.average, latencyP99Ms: j.latency.p99, non2xx: j.non2xx, errors: j.errors };
}

export interface BenchRow {
  name: string;
  ours: number;
  floor: number;
  ratio: number;
  target: string;
  unit: string;
}
