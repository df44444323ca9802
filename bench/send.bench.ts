// POST /api/v1/forms/{id}/send with one e-mail recipient, req/s, against a bare Fastify POST floor
// (a body schema as strict as the route's, answering a real send response). Target: ratio >= 0.3.
// Run: node --import tsx bench/send.bench.ts
//   (BENCH_DURATION=3 for a smoke run; BENCH_CONNECTIONS, BENCH_SEND_FORMS, BENCH_DIALECT=postgres)
//
// Ours is Formsign as `npm start` runs it (src/main.ts serve: JSON logs at info to /dev/null, the
// worker inline, so each send's message job is delivered to the dev outbox in the same process),
// pinned with taskset to one core; autocannon runs in its own process on the other core. Every request
// must be a send the form has not seen: autocannon's setupRequest gives each one a fresh address and
// rotates over BENCH_SEND_FORMS pre-created forms (a form takes at most 100 recipients, so the forms
// hold up to 100× as many requests; a run that would exceed that stops and says so). The first send
// of a form moves it from draft to sent; later ones add a recipient. Afterwards the recipients in the
// store are counted: one per 200 answered.
//
// On SQLite, ours is also set beside the same-work floor (servers/same-work-send-floor.ts): the least
// code that does what a send must (the rows written durably, the e-mail composed and delivered to the
// dev outbox), started on a copy of ours' schema and seeded forms and measured the same way, so the
// report says how much of the gap to the bytes floor is the work itself.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createForm } from '../src/domain/forms/create-form.js';
import { parseJson } from '../src/domain/json.js';
import { MAX_RECIPIENTS_PER_FORM } from '../src/domain/sending/recipient-rules.js';
import { createSampleTemplate } from '../src/domain/templates/import-template.js';
import { serveFormsign } from './formsign-serve.js';
import { HAS_TASKSET, LOAD_CPU, SERVER_CPU, startServer, type BenchRow, type Started } from './load.js';
import type { SameWorkSendSpec } from './servers/same-work-send-floor.js';

const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const DURATION = Number(process.env['BENCH_DURATION'] ?? 10);
// 4,000 forms keep each under about ten recipients by the end of a run, as sends usually are: a send
// presents the whole form (its recipients included) in its answer and its event, so its cost grows
// with the recipients the form already has (400 forms, ~44 each by the end: 1,445/s against 2,412/s).
const FORMS = Number(process.env['BENCH_SEND_FORMS'] ?? 4000);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface LoadSummary {
  requestsPerSec: number;
  total: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, { count: number }>;
  exhausted: boolean;
  /** The next request index: where the next run on the same forms starts. */
  next: number;
}

/** Runs bench/send-load-client.ts on the load core and reads its summary. */
function sendLoad(o: { url: string; path?: string; start?: number; formIds: string[]; key: string; durationSec: number; tag: string }): LoadSummary {
  const config = JSON.stringify({ url: o.url, path: o.path ?? null, start: o.start ?? 0, formIds: o.formIds, key: o.key, connections: CONNECTIONS, durationSec: o.durationSec, tag: o.tag, perForm: MAX_RECIPIENTS_PER_FORM });
  const args = ['--import', 'tsx', 'bench/send-load-client.ts'];
  const r = HAS_TASKSET
    ? spawnSync('taskset', ['-c', LOAD_CPU, process.execPath, ...args], { cwd: ROOT, env: { ...process.env, BENCH_SEND_CONFIG: config }, encoding: 'utf8', maxBuffer: 1 << 24 })
    : spawnSync(process.execPath, args, { cwd: ROOT, env: { ...process.env, BENCH_SEND_CONFIG: config }, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`the load client failed: ${r.stderr}`);
  const s = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as LoadSummary;
  if (s.exhausted) throw new Error(`${o.tag}: the ${o.formIds.length} forms ran out of fresh recipient slots; raise BENCH_SEND_FORMS`);
  if (s.non2xx > 0 || s.errors > 0) throw new Error(`${o.tag}: ${s.non2xx} non-2xx (${JSON.stringify(s.statusCodes)}), ${s.errors} errors`);
  return s;
}

/** Response headers that describe the connection or the moment, which the floor's Fastify sets itself. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** Polls `read` until two reads 250 ms apart agree (at most 5 s): requests in flight at the end have landed. */
async function settled(read: () => Promise<number>): Promise<number> {
  let last = await read();
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await read();
    if (now === last) break;
    last = now;
  }
  return last;
}

/** What the same-work floor prints once listening: its port and the sizes of its and ours' sample answers. */
interface SameWorkInfo { port: number; bytes: number; formsignBytes: number }

const ok = (s: LoadSummary): number => Object.entries(s.statusCodes).reduce((n, [code, v]) => n + (code.startsWith('2') ? Number(v.count) : 0), 0);

export async function run(dialect = process.env['BENCH_DIALECT'] ?? 'sqlite'): Promise<BenchRow[]> {
  const ours = await serveFormsign({
    prefix: 'bench-send',
    dialect,
    cpu: SERVER_CPU,
    seed: async (deps, p) => {
      const template = await createSampleTemplate(deps.domain, p);
      const ids: string[] = [];
      for (let i = 0; i <= FORMS; i++) ids.push(parseJson((await createForm(deps.domain, p, { template_id: template.id })).form).id);
      return ids;
    },
  });
  const { base, key, deps, partition } = ours;
  const sample = ours.seeded.pop()!;
  const formIds = ours.seeded;
  // The floor answers with a real send response of one recipient.
  const sampleRequest = JSON.stringify({ recipients: [{ channel: 'email', email: 'sample@bench.example', name: 'Sample' }] });
  const res = await fetch(`${base}/api/v1/forms/${sample}/send`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: sampleRequest,
  });
  const payload = await res.text();
  if (res.status !== 200) throw new Error(`the sample send answered ${res.status}: ${payload}`);
  const sampleHeaders: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!OWN_HEADERS.has(k)) sampleHeaders[k] = v;
  });
  const floor = await startServer<{ port: number }>('bench/servers/floor-server.ts', { BENCH_SEND_PAYLOAD: payload });
  const floorUrl = `http://127.0.0.1:${floor.info.port}`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-bench-send-'));
  let sameWork: Started<SameWorkInfo> | undefined;
  try {
    // Warm both (JIT, caches, the first sends of each form) before measuring.
    const warmFloor = sendLoad({ url: floorUrl, path: '/floor/send', formIds, key, durationSec: 2, tag: 'warmfloor' });
    const warmOurs = sendLoad({ url: base, formIds, key, durationSec: 2, tag: 'warm' });
    const floorRun = sendLoad({ url: floorUrl, path: '/floor/send', formIds, key, durationSec: DURATION, tag: 'floor' });
    const oursRun = sendLoad({ url: base, start: warmOurs.next, formIds, key, durationSec: DURATION, tag: 'ours' });
    void warmFloor;
    // Requests still in flight when autocannon stopped are answered but not counted: at most one per
    // connection and run. Counted once the store has settled.
    const count = async () => Number((await deps.database.db.selectFrom('recipients').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', partition.accountId).executeTakeFirstOrThrow()).n);
    const stored = await settled(count);
    const expected = 1 + ok(warmOurs) + ok(oursRun);
    if (stored < expected || stored > expected + 2 * CONNECTIONS) throw new Error(`${stored} recipients stored for ${expected} sends answered 200 (and at most ${2 * CONNECTIONS} in flight at the ends)`);
    const perForm = Math.ceil((ok(warmOurs) + ok(oursRun)) / formIds.length);
    const rows: BenchRow[] = [{
      name: `POST /api/v1/forms/{id}/send (one e-mail recipient, ${dialect}, npm start: logs on, worker inline; ${CONNECTIONS} connections, ${DURATION} s; ~${perForm} recipients per form by the end; p99 ${oursRun.latencyP99Ms} ms) vs bare Fastify POST with schema`,
      ours: oursRun.requestsPerSec,
      floor: floorRun.requestsPerSec,
      ratio: oursRun.requestsPerSec / floorRun.requestsPerSec,
      target: '>= 0.3',
      unit: 'req/s',
    }];
    // The same-work floor is written against better-sqlite3 and copies its schema and forms from ours'
    // SQLite file: on PostgreSQL there is no such file, and a same-work floor would be another program.
    if (dialect !== 'sqlite') return rows;

    // Ours idles on the server core meanwhile: its worker must have finished the run's deliveries and
    // publications first, or it would take that core from the floor. (Its scheduled jobs, sweeps and
    // expiry, stay pending for their time and are not counted.)
    const backlog = async () =>
      Number((await deps.database.db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', 'message.deliver').where('status', 'in', ['pending', 'running', 'failed']).executeTakeFirstOrThrow()).n) +
      Number((await deps.database.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).where('published_at', 'is', null).executeTakeFirstOrThrow()).n);
    for (let until = Date.now() + 60_000; (await backlog()) > 0; ) {
      if (Date.now() > until) throw new Error(`ours still has ${await backlog()} deliveries or events pending a minute after its run`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const specFile = path.join(tmp, 'same-work-send.json');
    const spec: SameWorkSendSpec = { dbFile: path.join(ours.dataDir, 'formsign.sqlite'), key, accountId: partition.accountId, mode: partition.mode, formIds, sampleFormId: sample, sampleRequest, body: payload, headers: sampleHeaders };
    fs.writeFileSync(specFile, JSON.stringify(spec));
    sameWork = await startServer<SameWorkInfo>('bench/servers/same-work-send-floor.ts', { BENCH_SAMEWORK_SPEC: specFile });
    const sameUrl = `http://127.0.0.1:${sameWork.info.port}`;
    // The floor starts from the forms as ours did (drafts) and with its own sample send done, so it
    // runs the same sequence: warm-up, then the measured run from where the warm-up stopped.
    const warmSame = sendLoad({ url: sameUrl, formIds, key, durationSec: 2, tag: 'warmsame' });
    const sameRun = sendLoad({ url: sameUrl, start: warmSame.next, formIds, key, durationSec: DURATION, tag: 'same' });
    const stats = async () => (await (await fetch(`${sameUrl}/floor/stats`)).json()) as { recipients: number; delivered: number };
    const sameStored = await settled(async () => (await stats()).recipients);
    const sameExpected = 1 + ok(warmSame) + ok(sameRun);
    if (sameStored < sameExpected || sameStored > sameExpected + 2 * CONNECTIONS) throw new Error(`the same-work floor stored ${sameStored} recipients for ${sameExpected} sends answered 200`);
    const delivered = await settled(async () => (await stats()).delivered);
    if (delivered !== sameStored) throw new Error(`the same-work floor delivered ${delivered} of its ${sameStored} messages`);
    const samePerForm = Math.ceil((ok(warmSame) + ok(sameRun)) / formIds.length);
    rows.push({
      name: `POST /api/v1/forms/{id}/send: the same-work floor (Fastify + better-sqlite3 + pino, key and limits in memory, rows group-committed and flushed, e-mail composed and delivered to the outbox in the next commit; ~${samePerForm} recipients per form by the end; answers ${sameWork.info.bytes} bytes, ours ${sameWork.info.formsignBytes} for the sample; p99 ${sameRun.latencyP99Ms} ms) vs bare Fastify POST with schema`,
      ours: sameRun.requestsPerSec,
      floor: floorRun.requestsPerSec,
      ratio: sameRun.requestsPerSec / floorRun.requestsPerSec,
      target: '(reported: what the work itself costs)',
      unit: 'req/s',
    });
    rows.push({
      name: `POST /api/v1/forms/{id}/send (one e-mail recipient, ${dialect}, npm start) vs the same-work floor`,
      ours: oursRun.requestsPerSec,
      floor: sameRun.requestsPerSec,
      ratio: oursRun.requestsPerSec / sameRun.requestsPerSec,
      target: '(reported)',
      unit: 'req/s',
    });
    return rows;
  } finally {
    if (sameWork) await sameWork.stop();
    await floor.stop();
    await ours.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await run()) console.log(`${r.name}\n  ours ${r.ours.toFixed(0)} ${r.unit} | floor ${r.floor.toFixed(0)} ${r.unit} | ratio ${r.ratio.toFixed(2)} (target ${r.target})`);
}
