// `npm run bench -- cluster` (issue 27): the throughput of the product run as a cluster, 1 API + 1
// worker and 2 + 2, on PostgreSQL, Redis and S3 (test/cluster/cluster.ts, no faults), and which part
// saturates first. Three timed phases per shape, each driven by CLUSTER_BENCH_CONCURRENCY client loops
// spread over the API processes:
// - forms created/s: POST /api/v1/forms for CLUSTER_BENCH_SECONDS;
// - sends/s: POST …/send, one e-mail recipient, on those forms for as long;
// - seals/s: every sent form signed through its signing page as fast as the loops go, then timed
//   from the first signature until the last sealed file is stored (the worker's seal job);
// - webhook deliveries/s: the busiest five seconds at the receiver over the whole run.
// With each figure, the CPU each process type used during the phase (one core = 100 %): the type near
// 100 % per process is what saturates first. Run on an idle machine: it measures the machine too.
import fs from 'node:fs';
import { build, isStale } from '../scripts/build.mjs';
import { startCluster, type Cluster, type Member } from '../test/cluster/cluster.js';
import { LoadClient } from '../test/cluster/load.js';
import { TINY_PNG } from '../test/signing/support.js';

interface Row { name: string; ours: number; target: string; unit?: string }

const SECONDS = Number(process.env['CLUSTER_BENCH_SECONDS'] ?? 10);
const CONCURRENCY = Number(process.env['CLUSTER_BENCH_CONCURRENCY'] ?? 8);
const SHAPES: Array<{ api: number; workers: number }> = [{ api: 1, workers: 1 }, { api: 2, workers: 2 }];

/** CPU time (user + system) a process has used, in ms (Linux /proc; 0 when gone). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined || !fs.existsSync(`/proc/${pid}/stat`)) return 0;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 1000) / 100;
}

/** Runs `phase`, then says how busy each process type was meanwhile (mean % of one core per process). */
async function measured<T>(c: Cluster, phase: () => Promise<T>): Promise<{ result: T; ms: number; cpu: string }> {
  const members: Member[] = [...c.apis, ...c.workers];
  const before = members.map((m) => cpuMs(m.pid()));
  const started = performance.now();
  const result = await phase();
  const ms = performance.now() - started;
  const share = (role: string) => {
    const of = members.map((m, i) => ({ m, used: cpuMs(m.pid()) - before[i]! })).filter((x) => x.m.role === role);
    return Math.round((of.reduce((s, x) => s + x.used, 0) / of.length / ms) * 100);
  };
  return { result, ms, cpu: `API ${share('api')} %, worker ${share('worker')} % of a core each` };
}

async function loops(n: number, body: (loop: number) => Promise<boolean>): Promise<void> {
  await Promise.all(Array.from({ length: n }, async (_, loop) => {
    while (await body(loop));
  }));
}

async function shape(api: number, workers: number): Promise<Row[]> {
  const c = await startCluster({ api, workers, webhookAnswerMs: 0 });
  const label = `${api} API + ${workers} worker${workers === 1 ? '' : 's'}`;
  try {
    const client = new LoadClient({ bases: c.apis.map((a) => a.base), key: c.load.key, templateId: c.load.templateId, concurrency: 1, stop: () => true });
    const key = c.load.key;

    // Forms created.
    const formIds: string[] = [];
    const created = await measured(c, () => {
      const until = Date.now() + SECONDS * 1000;
      return loops(CONCURRENCY, async () => {
        const a = await client.request('POST', '/api/v1/forms', { key, json: { template_id: c.load.templateId } });
        if (a.status === 201) formIds.push((JSON.parse(a.body) as { id: string }).id);
        return Date.now() < until;
      });
    });

    // Sends (one e-mail recipient each) on those forms.
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

    // Seals: sign every sent form, then wait for the last sealed file.
    let signedCount = 0;
    let nextPage = 0;
    const sealed = await measured(c, async () => {
      await loops(CONCURRENCY, async () => {
        const page = pages[nextPage++];
        if (page === undefined) return false;
        const a = await client.request('POST', page, { json: { values: { full_name: 'Bench Signer', signature: { image: TINY_PNG, method: 'drawn' } }, consent: true }, headers: { 'x-formsign-signing': '1' } });
        if (a.status === 200) signedCount++;
        return true;
      });
      const until = Date.now() + 300_000;
      for (;;) {
        const n = Number((await c.db.query<{ n: string }>('select count(*) as n from sealed_files')).rows[0]!.n);
        if (n >= signedCount || Date.now() > until) return n;
        await new Promise((r) => setTimeout(r, 100));
      }
    });

    // Webhook deliveries: the busiest five seconds at the receiver.
    await new Promise((r) => setTimeout(r, 2000));
    const arrivals = [...c.webhooks.arrivals].sort((a, b) => a - b);
    let busiest = 0;
    for (let i = 0, j = 0; i < arrivals.length; i++) {
      while (arrivals[i]! - arrivals[j]! > 5000) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    return [
      { name: `${label}: forms created/s (${formIds.length} in ${(created.ms / 1000).toFixed(1)} s; ${created.cpu})`, ours: formIds.length / (created.ms / 1000), target: '(reported)', unit: 'req/s' },
      { name: `${label}: sends/s (${pages.length} in ${(sent.ms / 1000).toFixed(1)} s; ${sent.cpu})`, ours: pages.length / (sent.ms / 1000), target: '(reported)', unit: 'req/s' },
      { name: `${label}: seals/s (${sealed.result} of ${signedCount} signed forms sealed in ${(sealed.ms / 1000).toFixed(1)} s; ${sealed.cpu})`, ours: sealed.result / (sealed.ms / 1000), target: '(reported)', unit: 'msg/s' },
      { name: `${label}: webhook deliveries/s (busiest 5 s; ${arrivals.length} in all)`, ours: busiest / 5, target: '(reported)', unit: 'msg/s' },
    ];
  } finally {
    await c.close();
  }
}

export async function run(): Promise<Row[]> {
  if (isStale()) await build();
  const rows: Row[] = [];
  for (const s of SHAPES) rows.push(...(await shape(s.api, s.workers)));
  return rows;
}
