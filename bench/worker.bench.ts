// E-mail jobs through the worker vs a raw nodemailer loop, both to the same local SMTP sink with the
// same concurrency; and the latency from a committed send to the SMTP DATA end.
// Run: node --import tsx bench/worker.bench.ts   (BENCH_DIALECT=postgres for PostgreSQL)
//
// Ours: N messages + jobs are committed (not timed), then the worker is started and timed until the
// sink has acknowledged all N. Floor: nodemailer's pooled transport sending the same N messages
// (same parts and sizes) from C concurrent loops. Both warmed up, then alternated for three rounds. Latency: one send at a time into a running worker,
// from the moment the transaction that enqueued it committed to the sink's DATA end.
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { createAccount } from '../src/domain/accounts/manage-accounts.js';
import { composeMessage } from '../src/domain/sending/compose-message.js';
import { processStore } from '../test/outbox/support/processes.js';
import { seedSentMessage } from '../test/outbox/support/sending.js';
import { seedTemplate } from '../test/shared/seed.js';
import { median, percentile } from './stats.js';

export interface BenchResult { name: string; ours: number; floor: number; ratio: number; target: string; unit?: string }

const N = Number(process.env['BENCH_JOBS'] ?? 500);
const ROUNDS = 3;
const CONCURRENCY = 8;
const LATENCY_SAMPLES = 200;

/** Acknowledges every message and notes when each one's DATA ended, by Message-ID. */
async function startSink() {
  const ended = new Map<string, number>();
  let count = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    disableReverseLookup: true,
    onData(stream, _session, cb) {
      let head = '';
      stream.on('data', (c: Buffer) => {
        if (head.length < 4096) head += c.toString('latin1');
      });
      stream.on('end', () => {
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1];
        if (id) ended.set(id, performance.now());
        count++;
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    ended,
    count: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setImmediate(r));
}

const round = (n: number): number => Math.round(n * 100) / 100;

export async function run(dialect = process.env['BENCH_DIALECT'] ?? 'sqlite'): Promise<{ rows: BenchResult[]; latency: { p50: number; p99: number; samples: number } }> {
  const sink = await startSink();
  const s = await processStore(dialect === 'postgres' ? 'postgres' : 'sqlite', 'benchworker', { SMTP_URL: `smtp://127.0.0.1:${sink.port}`, LOG_LEVEL: 'silent' }, {
    worker: { concurrency: CONCURRENCY, log: () => undefined },
  });
  const deps = s.deps;
  try {
    const account = await createAccount(deps.domain, { name: 'Acme Rentals', plan: 'paid' });
    const p = { accountId: account.id, mode: 'test' as const };
    const templateId = await seedTemplate(s.asHarness, p, 'Lease', new Date().toISOString());
    for (let i = 0; i < N; i++) await seedSentMessage(deps.domain, p, templateId, { channel: 'email', to: `r${i}@example.com` });

    // Both paths are warmed up first (connections, JIT): the first few hundred messages through any
    // code here run at half speed. Then rounds alternate, and the median ratio is reported.
    const sample = composeMessage({ channel: 'email', to: 'r@example.com', recipientName: null, formName: 'Lease', accountName: 'Acme Rentals', signingUrl: deps.domain.links.url('rcp_x'), expiresAt: new Date().toISOString() });
    const raw = nodemailer.createTransport({ pool: true, maxConnections: CONCURRENCY, host: '127.0.0.1', port: sink.port, secure: false });
    let rawSeq = 0;
    const floorRound = async (n: number): Promise<number> => {
      const before = sink.count();
      let next = 0;
      const t = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < n) {
            next++;
            const i = rawSeq++;
            await raw.sendMail({ from: 'Formsign <no-reply@localhost>', to: `r${i}@example.com`, subject: sample.subject, text: sample.text, html: sample.html, messageId: `<raw${i}@localhost>` });
          }
        }),
      );
      const perSec = n / ((performance.now() - t) / 1000);
      if (sink.count() - before !== n) throw new Error('the floor lost messages');
      return perSec;
    };
    let seq = 0;
    const oursRound = async (n: number): Promise<number> => {
      for (let i = 0; i < n; i++) await seedSentMessage(deps.domain, p, templateId, { channel: 'email', to: `r${seq++}@example.com` });
      const target = sink.count() + n;
      const t = performance.now();
      await deps.worker.start();
      await until(() => sink.count() >= target);
      const perSec = n / ((performance.now() - t) / 1000);
      await deps.worker.stop();
      return perSec;
    };
    await oursRound(Math.min(N, 200));
    await floorRound(Math.min(N, 200));
    const ratios: number[] = [];
    const ours: number[] = [];
    const floor: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      ours.push(await oursRound(N));
      floor.push(await floorRound(N));
      ratios.push(ours.at(-1)! / floor.at(-1)!);
    }
    raw.close();
    const oursPerSec = median(ours);
    const floorPerSec = median(floor);
    await deps.worker.start();

    // Latency: commit → DATA end, one at a time.
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const sent = await seedSentMessage(deps.domain, p, templateId, { channel: 'email', to: `l${i}@example.com` });
      const committed = performance.now();
      const id = `<${sent.messageId}@localhost>`;
      await until(() => sink.ended.has(id));
      latencies.push(sink.ended.get(id)! - committed);
    }
    return {
      rows: [{ name: `e-mail jobs through the worker vs raw nodemailer (${dialect}, ${ROUNDS} rounds of ${N} messages after warm-up, concurrency ${CONCURRENCY}; median)`, ours: round(oursPerSec), floor: round(floorPerSec), ratio: round(median(ratios)), target: '>= 0.5', unit: 'msg/s' }],
      latency: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), samples: latencies.length },
    };
  } finally {
    await s.drop();
    await sink.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { rows, latency } = await run();
  for (const r of rows) console.log(`${r.name}: ours ${r.ours} ${r.unit}, floor ${r.floor} ${r.unit}, ratio ${r.ratio} (target ${r.target})`);
  console.log(`latency commit → SMTP DATA end (${latency.samples} sends, one at a time): p50 ${latency.p50} ms, p99 ${latency.p99} ms`);
}
