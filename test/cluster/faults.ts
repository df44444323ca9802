import type { Cluster, Member } from './cluster.js';
import type { LoadClient } from './load.js';

// What the fault test does to the cluster while the load runs, at moments drawn from a seeded random
// source (the seed is printed, so a failing schedule can be run again with CLUSTER_SEED):
// - SIGKILL one API process and one worker, each at its own moment, and start them again a second later;
// - stop Redis for five seconds (the cluster's own redis-server), asking for the limited account's
//   window on every API process meanwhile;
// - make S3 refuse for five seconds (its proxy resets every connection);
// - make PostgreSQL unreachable for five seconds (its proxy), then end every session of the
//   database once (pg_terminate_backend).

export interface FaultEvent { atMs: number; what: string }

export interface RateProbe {
  /** While Redis was up: the statuses of 1.6 × the window's requests, spread over the API processes. */
  shared: number[];
  /** While Redis was down: the statuses of as many requests, and the fail-opens counted meanwhile. */
  redisDown: number[];
  failOpensBefore: number;
  failOpensAfter: number;
}

export interface FaultRun {
  seed: number;
  events: FaultEvent[];
  /** Worker ids of the processes killed (their leases must not outlive them). */
  killedWorkers: string[];
  /** Sessions pg_terminate_backend ended. */
  terminated: number;
  probe: RateProbe;
}

/** A small seeded generator (mulberry32): the same seed, the same moments. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** `n` GETs of one endpoint with the limited account's key, alternating over the given API processes. */
export async function probeWindow(apis: Member[], c: Cluster, client: LoadClient, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const api = apis[i % apis.length]!;
    statuses.push((await client.request('GET', '/api/v1/forms?limit=1', { key: c.limited.key, base: api.base })).status);
  }
  return statuses;
}

/** formsign_rate_limit_redis_fail_open_total summed over the given API processes. */
export async function failOpens(apis: Member[], c: Cluster): Promise<number> {
  let sum = 0;
  for (const api of apis) {
    const text = await c.metrics(api.base).catch(() => '');
    sum += Number(/^formsign_rate_limit_redis_fail_open_total (\d+)$/m.exec(text)?.[1] ?? 0);
  }
  return sum;
}

export async function runFaults(c: Cluster, client: LoadClient, o: { seed: number; windowRequests: number; log: (line: string) => void }): Promise<FaultRun> {
  const random = seeded(o.seed);
  const t0 = Date.now();
  const events: FaultEvent[] = [];
  const note = (what: string) => {
    events.push({ atMs: Date.now() - t0, what });
    o.log(`  [fault +${((Date.now() - t0) / 1000).toFixed(1)} s] ${what}`);
  };
  const killedWorkers: string[] = [];
  const killAndRestart = async (m: Member, atMs: number) => {
    await sleep(t0 + atMs - Date.now());
    if (m.role === 'worker') killedWorkers.push(m.workerIds.at(-1)!);
    await m.kill9();
    note(`SIGKILL ${m.role} ${m.index} (pid ${m.pid()})`);
    await sleep(1000);
    try {
      await m.start();
      note(`${m.role} ${m.index} started again (pid ${m.pid()})`);
    } catch (error) {
      note(`${m.role} ${m.index} did not start again: ${String(error).slice(0, 500)}`);
    }
  };
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
  const kills = Promise.all([
    killAndRestart(pick(c.apis), 3000 + random() * 8000),
    killAndRestart(pick(c.workers), 3000 + random() * 8000),
  ]);

  // The rest on a fixed schedule, whether or not the killed processes are back yet (a restart on a
  // loaded machine can take many seconds): the Redis probe asks the API processes that answer.
  await sleep(t0 + 13_000 - Date.now());
  const answering = c.apis.filter((a) => a.ready());
  const failOpensBefore = await failOpens(answering, c);
  await c.redisStop();
  note(`Redis stopped (probing ${answering.length} API process(es))`);
  await sleep(1000);
  const redisDown = await probeWindow(answering, c, client, o.windowRequests);
  const failOpensAfter = await failOpens(answering, c);
  await sleep(t0 + 18_000 - Date.now());
  await c.redisStart();
  note('Redis started again');

  await sleep(t0 + 21_000 - Date.now());
  note('S3 refuses (5 s)');
  await c.s3Proxy.cut(5000);
  note('S3 answers again');

  // Mid-load, so there are sessions to end.
  await sleep(t0 + 28_000 - Date.now());
  const terminated = await c.terminateBackends();
  note(`pg_terminate_backend ended ${terminated} sessions of ${c.dbName}`);

  await sleep(t0 + 32_000 - Date.now());
  note('PostgreSQL unreachable (5 s)');
  await c.pgProxy.cut(5000);
  note('PostgreSQL reachable again');
  await kills;
  return { seed: o.seed, events, killedWorkers, terminated, probe: { shared: [], redisDown, failOpensBefore, failOpensAfter } };
}
