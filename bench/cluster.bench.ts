// `npm run bench -- cluster` (issue 27): the throughput of the product run as a cluster, 1 API + 1
// worker and 2 + 2, on PostgreSQL, Redis and S3 (test/cluster/cluster.ts, no faults), and which part
// saturates first. Per shape, with CLUSTER_BENCH_CONCURRENCY client loops spread over the API processes:
// - forms created/s: POST /api/v1/forms for CLUSTER_BENCH_SECONDS, the workers stopped (so the API
//   processes and PostgreSQL are measured alone, and the events wait);
// - sends/s: POST …/send, one e-mail recipient, on those forms for as long, the workers still stopped;
// - webhook deliveries/s and e-mails/s: the workers started, timed from when they are up until the
//   receiver has a delivery of every waiting event and the SMTP sink every invitation (the backlog
//   the two phases left: what the workers can do, not what the load produced);
// - seals/s: every sent form signed through its signing page as fast as the loops go, timed from the
//   first signature until the last sealed file is stored.
// With each phase, the CPU each part used meanwhile (% of one core: per API process, per worker, the
// cluster database's PostgreSQL sessions together, and this process: load client, s3rver, receivers).
// The part near 100 % is what saturates first; on a machine busy with other work every part stays
// low and the figures measure the machine. Run on an idle machine.
// Then 1 + 1 again with TSA_URLS set (issue 36): every seal B-LTA, two timestamps from a loopback TSA
// (test/shared/tsa.ts: an openssl process per request), its seals/s beside the B-B figure.
// CLUSTER_BENCH_SHAPES=1,1+tsa (or 2) picks the shapes; default all three.
import fs from 'node:fs';
import os from 'node:os';
import { build, isStale } from '../scripts/build.mjs';
import { startCluster, type Cluster, type Member } from '../test/cluster/cluster.js';
import { LoadClient } from '../test/cluster/load.js';
import { makeTestTsaCa, startTsa } from '../test/shared/tsa.js';
import { TINY_PNG } from '../test/signing/support.js';

interface Row { name: string; ours: number; target: string; unit?: string }

const SECONDS = Number(process.env['CLUSTER_BENCH_SECONDS'] ?? 10);
const CONCURRENCY = Number(process.env['CLUSTER_BENCH_CONCURRENCY'] ?? 8);
const SHAPES: Array<{ api: number; workers: number; tsa?: boolean; name: string }> = [
  { api: 1, workers: 1, name: '1' }, { api: 2, workers: 2, name: '2' }, { api: 1, workers: 1, tsa: true, name: '1+tsa' },
].filter((s) => !process.env['CLUSTER_BENCH_SHAPES'] || process.env['CLUSTER_BENCH_SHAPES'].split(',').includes(s.name));

/** CPU time (user + system) a process has used, in ms (Linux /proc; 0 when gone). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined || !fs.existsSync(`/proc/${pid}/stat`)) return 0;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 1000) / 100;
}

/** CPU ms of each thread of a process by thread id (Linux /proc; empty when gone). */
function threadCpuMs(pid: number | undefined): Map<number, number> {
  const out = new Map<number, number>();
  if (pid === undefined || !fs.existsSync(`/proc/${pid}/task`)) return out;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), ((Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 1000) / 100);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

/**
 * The CPU ms a worker process used during a phase: its main thread (tid = pid), its busiest other
 * thread (the PDF pool's worker thread, with PDF_WORKERS=1) and every other thread together (GC
 * helpers, libuv's pool). Depends less on the machine's other load than a rate does.
 */
function threadSplit(pid: number | undefined, before: Map<number, number>): { main: number; pdf: number; rest: number } {
  const after = threadCpuMs(pid);
  let main = 0;
  const others: number[] = [];
  for (const [tid, ms] of after) {
    const used = ms - (before.get(tid) ?? 0);
    if (tid === pid) main = used;
    else others.push(used);
  }
  others.sort((a, b) => b - a);
  return { main, pdf: others[0] ?? 0, rest: others.slice(1).reduce((a, b) => a + b, 0) };
}

/** The PIDs of the PostgreSQL sessions of the cluster's database. */
async function pgPids(c: Cluster): Promise<number[]> {
  return (await c.db.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [c.dbName])).rows.map((r) => r.pid);
}

/** Runs `phase`, then says how busy each part was meanwhile (% of one core). */
async function measured<T>(c: Cluster, phase: () => Promise<T>): Promise<{ result: T; ms: number; cpu: string; worker: { main: number; pdf: number; rest: number } }> {
  const members: Member[] = [...c.apis, ...c.workers];
  const before = members.map((m) => cpuMs(m.pid()));
  const workerThreadsBefore = threadCpuMs(c.workers[0]?.pid());
  const loadBefore = os.loadavg()[0]!;
  const pgBefore = new Map((await pgPids(c)).map((pid) => [pid, cpuMs(pid)]));
  const selfBefore = process.cpuUsage();
  const started = performance.now();
  const result = await phase();
  const ms = performance.now() - started;
  const self = process.cpuUsage(selfBefore);
  // Sessions opened during the phase count from 0; ended ones are not seen (pools keep theirs open).
  const pgUsed = (await pgPids(c)).reduce((sum, pid) => sum + cpuMs(pid) - (pgBefore.get(pid) ?? 0), 0);
  const pct = (used: number) => Math.round((used / ms) * 100);
  const perProcess = (role: string) => {
    const of = members.map((m, i) => ({ m, used: cpuMs(m.pid()) - before[i]! })).filter((x) => x.m.role === role && x.m.alive());
    return of.length === 0 ? 0 : pct(of.reduce((sum, x) => sum + x.used, 0) / of.length);
  };
  const worker = threadSplit(c.workers[0]?.pid(), workerThreadsBefore);
  const load = `load average ${loadBefore.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}`;
  return { result, ms, worker, cpu: `CPU: API ${perProcess('api')} %, worker ${perProcess('worker')} % each; PostgreSQL ${pct(pgUsed)} %; load+S3+receivers ${pct((self.user + self.system) / 1000)} %; ${load}` };
}

async function loops(n: number, body: (loop: number) => Promise<boolean>): Promise<void> {
  await Promise.all(Array.from({ length: n }, async (_, loop) => {
    while (await body(loop));
  }));
}

async function shape(api: number, workers: number, tsa = false): Promise<Row[]> {
  if (tsa) {
    const ca = makeTestTsaCa();
    const server = await startTsa(ca);
    try {
      return await shapeWith(api, workers, { TSA_URLS: server.url }, ', B-LTA (loopback TSA)');
    } finally {
      await server.close();
      ca.remove();
    }
  }
  return shapeWith(api, workers, {}, '');
}

async function shapeWith(api: number, workers: number, env: Record<string, string>, suffix: string): Promise<Row[]> {
  const c = await startCluster({ api, workers, webhookAnswerMs: 0, env });
  const label = `${api} API + ${workers} worker${workers === 1 ? '' : 's'}${suffix}`;
  try {
    const client = new LoadClient({ bases: c.apis.map((a) => a.base), key: c.load.key, templateId: c.load.templateId, concurrency: 1, stop: () => true });
    const key = c.load.key;

    // Forms created, then sends, with the workers stopped: the API side alone; the work waits.
    await Promise.all(c.workers.map((w) => w.kill9()));
    const formIds: string[] = [];
    const created = await measured(c, () => {
      const until = Date.now() + SECONDS * 1000;
      return loops(CONCURRENCY, async () => {
        const a = await client.request('POST', '/api/v1/forms', { key, json: { template_id: c.load.templateId } });
        if (a.status === 201) formIds.push((JSON.parse(a.body) as { id: string }).id);
        return Date.now() < until;
      });
    });
    const pages: string[] = [];
    let next = 0;
    const sent = await measured(c, () => {
      const until = Date.now() + SECONDS * 1000;
      return loops(CONCURRENCY, async () => {
        const formId = formIds[next++];
        if (formId === undefined) return false;
        const a = await client.request('POST', `/api/v1/forms/${formId}/send`, { key, json: { recipients: [{ channel: 'email', email: `bench${next}@cluster.example` }] } });
        if (a.status === 200) pages.push(new URL((JSON.parse(a.body) as { recipients: Array<{ signing_url: string }> }).recipients[0]!.signing_url).pathname);
        return Date.now() < until;
      });
    });

    // The workers on the backlog: every waiting event's delivery and every invitation.
    const events = Number((await c.db.query<{ n: string }>(`select count(*) as n from events where type in ('form.created', 'form.sent')`)).rows[0]!.n);
    await Promise.all(c.workers.map((w) => w.start()));
    const hooksBefore = c.webhooks.arrivals.length;
    const mailsBefore = c.smtp.received.length;
    let hooksMs = 0;
    let mailsMs = 0;
    const drained = await measured(c, async () => {
      const t0 = performance.now();
      const until = Date.now() + 300_000;
      while ((hooksMs === 0 || mailsMs === 0) && Date.now() < until) {
        if (hooksMs === 0 && c.webhooks.byEvent.size >= events) hooksMs = performance.now() - t0;
        if (mailsMs === 0 && c.smtp.received.length >= pages.length) mailsMs = performance.now() - t0;
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    const hooks = c.webhooks.arrivals.length - hooksBefore;
    const mails = c.smtp.received.length - mailsBefore;

    // Seals: sign every sent form, then wait for the last sealed file.
    let signedCount = 0;
    let nextPage = 0;
    let signingMs = 0;
    // Every second: the seal jobs waiting (due, not taken), running (leased), and the other jobs
    // waiting, to tell whether the signatures or the worker set the pace.
    const backlog: string[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        // A failed phase closes the cluster under this loop: its error is the one to report, not this one's.
        const rows = await c.db.query<{ seal: boolean; leased: boolean; n: string }>(
          `select kind = 'form.seal' as seal, status = 'running' as leased, count(*) as n from outbox where status = 'running' or (status in ('pending', 'failed') and run_at <= $1) group by 1, 2`, [new Date().toISOString()]).then((r) => r.rows, () => undefined);
        if (!rows) return;
        const n = (seal: boolean, leased: boolean) => rows.filter((r) => r.seal === seal && r.leased === leased).reduce((a, r) => a + Number(r.n), 0);
        backlog.push(`${n(true, false)}/${n(true, true)}/${n(false, false)}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    // A preload given in CLUSTER_WORKER_NODE_FLAGS (--import/--require) may snapshot its counters on
    // SIGUSR2 (before and after); without one, SIGUSR2 would end the worker (its default action).
    const preload = /(^|\s)(--import|--require|-r)(\s|=)/.test(process.env['CLUSTER_WORKER_NODE_FLAGS'] ?? '');
    const snapshot = () => preload && c.workers.forEach((w) => w.pid() !== undefined && process.kill(w.pid()!, 'SIGUSR2'));
    snapshot();
    const sealed = await measured(c, async () => {
      const t0 = performance.now();
      await loops(CONCURRENCY, async () => {
        const page = pages[nextPage++];
        if (page === undefined) return false;
        const a = await client.request('POST', page, { json: { values: { full_name: 'Bench Signer', signature: { image: TINY_PNG, method: 'drawn' } }, consent: true }, headers: { 'x-formsign-signing': '1' } });
        if (a.status === 200) signedCount++;
        return true;
      });
      signingMs = performance.now() - t0;
      const until = Date.now() + 300_000;
      for (;;) {
        const n = Number((await c.db.query<{ n: string }>('select count(*) as n from sealed_files')).rows[0]!.n);
        if (n >= signedCount || Date.now() > until) return n;
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    snapshot();
    sampling = false;
    await sampler;
    // CPU ms per seal of the first worker, by thread (its share when there are two workers).
    const perSeal = (ms: number) => (ms / Math.max(1, sealed.result / c.workers.length)).toFixed(1);
    const sealCpu = `worker CPU per seal: main thread ${perSeal(sealed.worker.main)} ms, PDF thread ${perSeal(sealed.worker.pdf)} ms, other threads ${perSeal(sealed.worker.rest)} ms`;
    if (process.env['CLUSTER_WORKER_NODE_FLAGS']) {
      // A profile (or a preload's counts) is written at exit: stop the workers as a supervisor would (SIGTERM), not kill -9.
      for (const w of c.workers) if (w.pid() !== undefined) process.kill(w.pid()!, 'SIGTERM');
      const until = Date.now() + 30_000;
      while (c.workers.some((w) => w.alive()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    }
    const size = (await c.db.query<{ avg: string | null }>('select avg(size) as avg from sealed_files')).rows[0]!.avg;
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    return [
      { name: `${label}: forms created/s (${formIds.length} in ${s(created.ms)}, workers stopped; ${created.cpu})`, ours: formIds.length / (created.ms / 1000), target: '(reported)', unit: 'req/s' },
      { name: `${label}: sends/s (${pages.length} in ${s(sent.ms)}, workers stopped; ${sent.cpu})`, ours: pages.length / (sent.ms / 1000), target: '(reported)', unit: 'req/s' },
      { name: `${label}: webhook deliveries/s (a backlog of ${events} events: ${hooks} deliveries in ${s(hooksMs)}; ${drained.cpu})`, ours: hooks / (hooksMs / 1000), target: '(reported)', unit: 'msg/s' },
      { name: `${label}: invitation e-mails/s (${mails} in ${s(mailsMs)}, beside the deliveries)`, ours: mails / (mailsMs / 1000), target: '(reported)', unit: 'msg/s' },
      { name: `${label}: seals/s (${sealed.result} of ${signedCount} signed forms sealed in ${s(sealed.ms)}, sealed PDF ${Math.round(Number(size ?? 0) / 1024)} KiB on average; ${sealed.cpu}; ${sealCpu}; the last signature at ${s(signingMs)}; seal jobs waiting/running/other jobs waiting each second: ${backlog.join(' ')})`, ours: sealed.result / (sealed.ms / 1000), target: '(reported)', unit: 'msg/s' },
    ];
  } finally {
    await c.close();
  }
}

export async function run(): Promise<Row[]> {
  if (isStale()) await build();
  const rows: Row[] = [];
  for (const s of SHAPES) rows.push(...(await shape(s.api, s.workers, s.tsa)));
  return rows;
}
