// Webhook deliveries through the publisher and the worker vs a raw fetch (undici) POST loop, both to
// the same loopback receiver that answers 200 at once, with the same concurrency; and the latency from
// a committed event to its first attempt's request at 100 events/s.
// Run: node --import tsx bench/webhooks.bench.ts   (BENCH_DIALECT=postgres for PostgreSQL)
//
// Ours: N events are committed (not timed) for one webhook, then the worker is started and timed until
// the receiver has all N: the publisher's fan-out, one job per delivery, the body rendered by the form
// presenter, an HMAC per attempt, the guarded connection and the recorded outcome all count. Floor:
// fetch POSTing the same body N times from C concurrent loops (C = the per-endpoint cap, the most
// attempts one webhook gets at once). Latency: events committed one every 10 ms into a running worker,
// from the commit of each to its request arriving at the receiver.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { listRecipientsOfForm } from '../src/db/repositories/recipients.js';
import type { Deps } from '../src/deps.js';
import { createAccount } from '../src/domain/accounts/manage-accounts.js';
import { recordFormEvent } from '../src/domain/forms/record-event.js';
import { createForm } from '../src/domain/forms/create-form.js';
import { formState } from '../src/domain/forms/present-form.js';
import { createWebhook } from '../src/domain/webhooks/create-webhook.js';
import type { Partition } from '../src/lib/partition.js';
import { processStore } from '../test/outbox/support/processes.js';
import { seedTemplate } from '../test/shared/seed.js';
import { percentile } from './stats.js';

export interface BenchResult { name: string; ours: number; floor: number; ratio: number; target: string; unit?: string }

const N = Number(process.env['BENCH_DELIVERIES'] ?? 2000);
const CONCURRENCY = 4; // WEBHOOK_PER_ENDPOINT_CONCURRENCY in deps.ts
const RATE_PER_SEC = Number(process.env['BENCH_RATE'] ?? 100);
const LATENCY_SECONDS = Number(process.env['BENCH_LATENCY_SECONDS'] ?? 5);

async function startReceiver() {
  const arrived = new Map<string, number>();
  let count = 0;
  let lastBody = Buffer.alloc(0);
  const server = http.createServer((req, res) => {
    const id = req.headers['service-event-id'];
    if (typeof id === 'string' && !arrived.has(id)) arrived.set(id, performance.now());
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      count++;
      lastBody = Buffer.concat(chunks);
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrived,
    count: () => count,
    lastBody: () => lastBody,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 1));
}

const round = (n: number): number => Math.round(n * 100) / 100;

/** Commits one event of the form (a form.viewed, as a viewing would) and returns when it committed. */
async function commitEvent(deps: Deps, p: Partition, formId: string): Promise<{ id: string; committedAt: number }> {
  const form = await deps.database.db.selectFrom('forms').selectAll().where('id', '=', formId).executeTakeFirstOrThrow();
  const recipients = await listRecipientsOfForm(deps.database.db, p, formId);
  const id = await deps.domain.transact((trx) => recordFormEvent(trx, p, 'form.viewed', formState(form, recipients), new Date().toISOString()));
  return { id, committedAt: performance.now() };
}

export async function run(dialect = process.env['BENCH_DIALECT'] ?? 'sqlite'): Promise<{ rows: BenchResult[]; latency: { p50: number; p99: number; samples: number } }> {
  const rx = await startReceiver();
  const s = await processStore(dialect === 'postgres' ? 'postgres' : 'sqlite', 'benchwh', { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'silent' });
  const deps = s.deps;
  try {
    const account = await createAccount(deps.domain, { name: 'Acme Rentals', plan: 'paid' });
    const p: Partition = { accountId: account.id, mode: 'test' };
    const templateId = await seedTemplate(s.asHarness, p, 'Lease', new Date().toISOString());
    await createWebhook(deps.domain, p, { url: rx.url, events: ['form.created', 'form.viewed'] });
    for (let i = 0; i < N; i++) await createForm(deps.domain, p, { template_id: templateId });

    // Ours: the worker publishes and delivers N committed events.
    let t = performance.now();
    await deps.worker.start();
    await until(() => rx.count() >= N);
    const oursPerSec = N / ((performance.now() - t) / 1000);

    // Floor: the same body POSTed by fetch from C loops.
    const body = rx.lastBody();
    const before = rx.count();
    t = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < N) {
          const res = await fetch(rx.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          await res.arrayBuffer();
        }
      }),
    );
    const floorPerSec = (rx.count() - before) / ((performance.now() - t) / 1000);

    // Latency at 100 events/s into the running worker.
    const { id: formId } = JSON.parse((await createForm(deps.domain, p, { template_id: templateId })).form.json) as { id: string };
    await until(() => rx.count() >= before + N + 1);
    const sent: Array<{ id: string; committedAt: number }> = [];
    const start = performance.now();
    const total = RATE_PER_SEC * LATENCY_SECONDS;
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE_PER_SEC;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      void commitEvent(deps, p, formId).then((e) => sent.push(e));
    }
    await until(() => sent.length === total && sent.every((e) => rx.arrived.has(e.id)));
    const latencies = sent.map((e) => rx.arrived.get(e.id)! - e.committedAt);
    const latency = { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), samples: latencies.length };

    return {
      rows: [{ name: `webhook deliveries/s to one loopback receiver (${dialect}, N=${N}, concurrency ${CONCURRENCY})`, ours: oursPerSec, floor: floorPerSec, ratio: oursPerSec / floorPerSec, target: '>= 0.5', unit: 'req/s' }],
      latency,
    };
  } finally {
    await s.drop();
    await rx.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { rows, latency } = await run();
  for (const r of rows) console.log(`${r.name}\n  ours ${r.ours.toFixed(0)} ${r.unit} | floor ${r.floor.toFixed(0)} ${r.unit} | ratio ${r.ratio.toFixed(2)} (target ${r.target})`);
  console.log(`committed event → first attempt at ${RATE_PER_SEC} events/s: p50 ${latency.p50} ms, p99 ${latency.p99} ms over ${latency.samples} (target p99 < 250 ms)`);
}
