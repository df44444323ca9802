import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { createAccount, setAccountLimits } from '../src/domain/accounts/manage-accounts.js';
import { createApiKey } from '../src/domain/keys/manage-keys.js';
import { createSampleTemplate, importTemplate } from '../src/domain/templates/import-template.js';
import type { Partition } from '../src/lib/partition.js';
import { BENCH_LIMIT, serveFormsign } from './formsign-serve.js';
import { load, SERVER_CPU, startServer, type BenchRow, type LoadOptions, type LoadResult } from './load.js';
import type { FloorRoute } from './servers/floor-server.js';
import type { SameWorkSpec } from './servers/same-work-floor.js';
import type { SameWorkFormsSpec } from './servers/same-work-forms-floor.js';
import type { Deps } from '../test/outbox/support/processes.js';
import { median } from './stats.js';

// GET /api/v1/templates and POST /api/v1/forms on the server exactly as `npm start` runs it (JSON
// access log at info to /dev/null, limiter and monthly quota checked on every request, worker inline,
// SQLite), pinned to core 0, against bare Fastify on the same core replaying the very same answer from
// memory. Every target gets the same connections and duration and its own warm-up; autocannon runs on
// core 1. One seeded store, the server restarted per configuration, so every variant answers the same bytes.

const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const DURATION = Number(process.env['BENCH_DURATION'] ?? 10);
const WARMUP = Number(process.env['BENCH_WARMUP'] ?? Math.min(3, DURATION));
/** BENCH_CHECK_ONLY=1: one request per target instead of load, to check the set-up (bytes, floors, Redis) quickly. */
const CHECK_ONLY = process.env['BENCH_CHECK_ONLY'] === '1';
const REDIS_URL = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
/** Rounds of (floor, same-work floor, ours) back to back for the configurations with targets. */
const ROUNDS = Math.max(1, Math.floor(Number(process.env['BENCH_ROUNDS'] ?? 3)) || 3);
const FIXTURE = fileURLToPath(new URL('../test/fixtures/pdfs/openoffice_form_example.pdf', import.meta.url));
const PAGE = '/api/v1/templates?limit=20';

/** The first account (serveFormsign's, its key is `Served.key`) holds 20 imports of openoffice_form_example.pdf. */
interface Seeded {
  /** An account holding only the sample template. */
  sampleKey: string;
  sampleAccountId: string;
  /** An account with one template of 20 text fields, for POST /forms with 20 prefill keys. */
  formsKey: string;
  formsAccountId: string;
  wideTemplateId: string;
}

async function benchAccount(deps: Deps, name: string): Promise<{ p: Partition; key: string }> {
  const account = await createAccount(deps.domain, { name, plan: 'paid' });
  await setAccountLimits(deps.domain, account.id, { monthly: BENCH_LIMIT, perMinute: BENCH_LIMIT });
  const p: Partition = { accountId: account.id, mode: 'test' };
  return { p, key: (await createApiKey(deps.domain, { accountId: account.id, mode: 'test' })).key };
}

async function seed(deps: Deps, p: Partition): Promise<Seeded> {
  const pdf = new Uint8Array(fs.readFileSync(FIXTURE));
  for (let i = 0; i < 20; i++) await importTemplate(deps.domain, p, { pdf, fallbackName: 'openoffice_form_example.pdf' });
  const sample = await benchAccount(deps, 'Bench Sample');
  await createSampleTemplate(deps.domain, sample.p);
  const forms = await benchAccount(deps, 'Bench Forms');
  const fields = Array.from({ length: 20 }, (_, i) => ({ name: `field_${i}`, type: 'text', required: false, signer: 1, page: 1, x: 50, y: 40 + i * 30, width: 300, height: 20 }));
  const wide = await importTemplate(deps.domain, forms.p, { pdf, name: 'twenty fields', fields });
  return { sampleKey: sample.key, sampleAccountId: sample.p.accountId, formsKey: forms.key, formsAccountId: forms.p.accountId, wideTemplateId: wide.id };
}

interface Workload {
  name: string;
  floorPath: string;
  request: Omit<LoadOptions, 'url' | 'connections' | 'durationSec'> & { path: string };
  expectStatus: number;
  validate?: string;
}

/** Response headers that describe the connection or the moment, which the floor's Fastify sets itself. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** Calls ours once and turns the answer into the floor's canned reply (checking it is the answer meant). */
async function captureFloor(base: string, w: Workload, check: (body: string) => void): Promise<FloorRoute> {
  const method = w.request.method ?? 'GET';
  const res = await fetch(`${base}${w.request.path}`, { method, headers: w.request.headers ?? {}, ...(w.request.body !== undefined ? { body: w.request.body } : {}) });
  const body = await res.text();
  if (res.status !== w.expectStatus) throw new Error(`${w.name}: expected ${w.expectStatus}, got ${res.status}: ${body.slice(0, 500)}`);
  check(body);
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!OWN_HEADERS.has(k)) headers[k] = v;
  });
  return { method, path: w.floorPath, status: res.status, headers, body, ...(w.validate ? { validate: w.validate } : {}) };
}

async function measure(name: string, o: LoadOptions, warm = true): Promise<LoadResult> {
  if (CHECK_ONLY) {
    const res = await fetch(o.url, { method: o.method ?? 'GET', headers: o.headers ?? {}, ...(o.body !== undefined ? { body: o.body } : {}) });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${name}: ${res.status}`);
    return { requestsPerSec: 1, latencyP99Ms: 0, non2xx: 0, errors: 0 };
  }
  load({ ...o, durationSec: warm ? WARMUP : 1 });
  const r = load(o);
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r;
}

/**
 * GET a page of 20 real templates, GET the sample-template page (each with the in-process limiter, the
 * Redis limiter and logging off) and POST /forms with 20 prefill keys (in-process limiter, logging off),
 * each against its floor.
 */
export async function run(): Promise<BenchRow[]> {
  // The server inherits this process's environment: a REDIS_URL from the shell would turn the in-process
  // rows into Redis ones, so only the Redis variant sets it.
  const shellRedis = process.env['REDIS_URL'];
  delete process.env['REDIS_URL'];
  let ours;
  try {
    ours = await serveFormsign<Seeded>({ prefix: 'bench_http', cpu: SERVER_CPU, seed });
  } finally {
    if (shellRedis !== undefined) process.env['REDIS_URL'] = shellRedis;
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-bench-floor-'));
  const stops: Array<() => Promise<void>> = [() => ours.stop(), async () => fs.rmSync(tmp, { recursive: true, force: true })];
  try {
    const s = ours.seeded;
    const json = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
    const prefill = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`field_${i}`, `value number ${i} Łódź`]));
    const twenty: Workload = { name: 'GET /api/v1/templates (page of 20 imported openoffice_form_example.pdf)', floorPath: '/floor/templates-20', request: { path: PAGE, headers: { authorization: `Bearer ${ours.key}` } }, expectStatus: 200 };
    const sample: Workload = { name: 'GET /api/v1/templates (sample-template page)', floorPath: '/floor/templates-sample', request: { path: PAGE, headers: { authorization: `Bearer ${s.sampleKey}` } }, expectStatus: 200 };
    const forms: Workload = { name: 'POST /api/v1/forms (20 prefill keys)', floorPath: '/floor/forms', request: { path: '/api/v1/forms', method: 'POST', headers: json(s.formsKey), body: JSON.stringify({ template_id: s.wideTemplateId, prefill }) }, expectStatus: 201, validate: 'createForm' };
    const page = (n: number) => (body: string) => {
      const got = (JSON.parse(body) as { data: unknown[] }).data.length;
      if (got !== n) throw new Error(`expected a page of ${n} templates, got ${got}`);
    };
    const routes = [
      await captureFloor(ours.base, twenty, page(20)),
      await captureFloor(ours.base, sample, page(1)),
      await captureFloor(ours.base, forms, (body) => {
        const fields = (JSON.parse(body) as { fields: Array<{ name: string; value: unknown }> }).fields;
        if (fields.length !== 20 || fields.find((f) => f.name === 'field_19')?.value !== prefill['field_19']) throw new Error(`the form does not carry the prefill: ${body.slice(0, 500)}`);
      }),
    ];
    const spec = path.join(tmp, 'floor.json');
    fs.writeFileSync(spec, JSON.stringify(routes));
    const floor = await startServer<{ port: number }>('bench/servers/floor-server.ts', { BENCH_FLOOR_SPEC: spec });
    stops.unshift(() => floor.stop());
    const floorBase = `http://127.0.0.1:${floor.info.port}`;
    const opts = (base: string, w: Workload, toFloor: boolean): LoadOptions => {
      const { path: p, ...req } = w.request;
      // The floor has no auth: it gets the same body and content type, not the key.
      const headers = toFloor ? Object.fromEntries(Object.entries(req.headers ?? {}).filter(([k]) => k !== 'authorization')) : req.headers;
      return { ...req, ...(headers ? { headers } : {}), url: `${base}${toFloor ? w.floorPath : p}`, connections: CONNECTIONS, durationSec: DURATION };
    };
    // Sanity: the floor answers the captured bytes (and validates the body it is sent).
    for (const [w, r] of [[twenty, routes[0]!], [sample, routes[1]!], [forms, routes[2]!]] as const) {
      const o = opts(floorBase, w, true);
      const res = await fetch(o.url, { method: o.method ?? 'GET', headers: o.headers ?? {}, ...(o.body !== undefined ? { body: o.body } : {}) });
      const body = await res.text();
      if (res.status !== r.status || body !== r.body) throw new Error(`floor ${w.floorPath} answers ${res.status} with ${body.length} chars, not the captured ${r.status} with ${r.body.length}`);
    }

    // Every floor stays up beside ours, so each round measures a floor and ours back to back and the
    // ratio is taken per round: on a shared machine the speed drifts by more than 10 % within minutes,
    // and a floor measured minutes before ours would carry that drift into the ratio.
    // The same-work floor (servers/same-work-floor.ts): the lists answered by the least code that does
    // the work the contract asks (key, limits, a read of the same SQLite file, an access-log line,
    // the request's metrics), once with the window in memory and once in Redis.
    const sameWorkSpec = path.join(tmp, 'same-work.json');
    const listed = [{ w: twenty, key: ours.key, p: ours.partition, body: routes[0]! }, { w: sample, key: s.sampleKey, p: { accountId: s.sampleAccountId, mode: 'test' as const }, body: routes[1]! }];
    fs.writeFileSync(sameWorkSpec, JSON.stringify({ dbFile: path.join(ours.dataDir, 'formsign.sqlite'), routes: listed.map((l) => ({ path: PAGE, key: l.key, accountId: l.p.accountId, mode: l.p.mode, body: l.body.body, headers: l.body.headers })) } satisfies SameWorkSpec));
    const sameWork = await startServer<{ port: number }>('bench/servers/same-work-floor.ts', { BENCH_SAMEWORK_SPEC: sameWorkSpec });
    stops.unshift(() => sameWork.stop());
    await clearFloorWindows(REDIS_URL);
    const sameWorkRedis = await startServer<{ port: number }>('bench/servers/same-work-floor.ts', { BENCH_SAMEWORK_SPEC: sameWorkSpec, BENCH_SAMEWORK_REDIS: REDIS_URL });
    // Last among the floors' stops: Redis gone by then must not keep the servers running.
    stops.unshift(() => sameWorkRedis.stop(), () => clearFloorWindows(REDIS_URL).catch(() => undefined));
    // And for POST /forms (servers/same-work-forms-floor.ts): the same rows, group-committed and flushed.
    const created = JSON.parse(routes[2]!.body) as { id: string };
    const formsSpecFile = path.join(tmp, 'same-work-forms.json');
    const formsSpec: SameWorkFormsSpec = { dbFile: path.join(ours.dataDir, 'formsign.sqlite'), formId: created.id, key: s.formsKey, accountId: s.formsAccountId, mode: 'test', fieldNames: Object.keys(prefill), body: routes[2]!.body, headers: routes[2]!.headers };
    fs.writeFileSync(formsSpecFile, JSON.stringify(formsSpec));
    const sameWorkForms = await startServer<{ port: number }>('bench/servers/same-work-forms-floor.ts', { BENCH_SAMEWORK_SPEC: formsSpecFile });
    stops.unshift(() => sameWorkForms.stop());
    const at = (port: number) => `http://127.0.0.1:${port}`;
    const sameWorkAt = new Map<Workload, string>([[twenty, at(sameWork.info.port)], [sample, at(sameWork.info.port)], [forms, at(sameWorkForms.info.port)]]);
    const sameWorkRedisAt = new Map<Workload, string>([[twenty, at(sameWorkRedis.info.port)], [sample, at(sameWorkRedis.info.port)]]);

    const all = [twenty, sample, forms];
    const bytes = (w: Workload) => Buffer.byteLength(routes[all.indexOf(w)]!.body);
    const bytesRuns = new Map<Workload, number[]>();
    const sameWorkRuns = new Map<string, number[]>();
    const rows: BenchRow[] = [];
    const variants: Array<{ config: string; env: Record<string, string>; targets: [string, string, string | undefined]; rounds: number; against?: { at: Map<Workload, string>; label: string } }> = [
      { config: 'npm start (LOG_LEVEL=info, in-process limiter)', env: {}, targets: ['>= 0.6', '>= 0.6', '>= 0.4'], rounds: ROUNDS, against: { at: sameWorkAt, label: '' } },
      { config: 'npm start with REDIS_URL (LOG_LEVEL=info, Redis limiter)', env: { REDIS_URL }, targets: ['>= 0.5', '>= 0.5', undefined], rounds: ROUNDS, against: { at: sameWorkRedisAt, label: ' with the window in Redis' } },
      { config: 'LOG_LEVEL=silent (in-process limiter)', env: { LOG_LEVEL: 'silent' }, targets: ['(reported)', '(reported)', '(reported)'], rounds: 1 },
    ];
    for (const [n, v] of variants.entries()) {
      // The first configuration is the one already running (and captured).
      if (n > 0) await ours.restart(v.env);
      const oursRuns = new Map<Workload, number[]>();
      const paired = new Map<Workload, number[]>();
      for (let round = 0; round < v.rounds; round++) {
        for (const [i, w] of all.entries()) {
          if (v.targets[i] === undefined) continue;
          // Warm-up before a server's first run of a workload only.
          const warm = round === 0;
          const bytesRun = async () => {
            if (n === 0) push(bytesRuns, w, (await measure(`floor ${w.floorPath}`, opts(floorBase, w, true), warm)).requestsPerSec);
          };
          const swBase = v.against?.at.get(w);
          const sameWorkRun = async () => (swBase === undefined ? undefined : (await measure(`same-work floor${v.against!.label} ${w.name}`, opts(swBase, w, false), warm)).requestsPerSec);
          const oursRun = async () => (await measure(`${w.name}, ${v.config}`, opts(ours.base, w, false), warm)).requestsPerSec;
          // The order alternates between rounds, so a position in the round (first after the
          // previous workload, last before the next) does not always fall to the same server.
          let sw: number | undefined;
          let r: number;
          if (round % 2 === 0) {
            await bytesRun();
            sw = await sameWorkRun();
            r = await oursRun();
          } else {
            r = await oursRun();
            sw = await sameWorkRun();
            await bytesRun();
          }
          if (sw !== undefined) push(sameWorkRuns, `${w.name}${v.against!.label}`, sw);
          push(oursRuns, w, r);
          if (sw !== undefined) push(paired, w, r / sw);
        }
      }
      for (const [i, w] of all.entries()) {
        const target = v.targets[i];
        if (target === undefined) continue;
        const oursRps = median(oursRuns.get(w)!);
        const bytesRps = median(bytesRuns.get(w)!);
        const runs = v.rounds > 1 ? ` (median of ${v.rounds} rounds)` : '';
        if (v.against) {
          const sw = median(sameWorkRuns.get(`${w.name}${v.against.label}`)!);
          rows.push({ name: `${w.name}: the same-work floor${v.against.label} (Fastify + better-sqlite3 + pino + prom-client, key and limits ${v.against.label ? 'in Redis' : 'in memory'}${w === forms ? ', rows group-committed and flushed' : ''}) vs bare Fastify sending the same ${bytes(w)} bytes${w.validate ? ' after validating the body' : ' from memory'}${runs}`, ours: sw, floor: bytesRps, ratio: sw / bytesRps, target: '(reported: what the work itself costs)', unit: 'req/s' });
        }
        rows.push({ name: `${w.name}, ${v.config} vs bare Fastify sending the same ${bytes(w)} bytes${w.validate ? ` after validating the body with the ${w.validate} schema` : ' from memory'}${runs}`, ours: oursRps, floor: bytesRps, ratio: oursRps / bytesRps, target, unit: 'req/s' });
        if (v.against) {
          const ratios = paired.get(w)!;
          const swRuns = sameWorkRuns.get(`${w.name}${v.against.label}`)!;
          const oursList = oursRuns.get(w)!;
          const perRound = ratios.map((x, k) => `${x.toFixed(2)} = ${Math.round(oursList[k]!)}/${Math.round(swRuns[k]!)}`).join(', ');
          rows.push({ name: `${w.name}, ${v.config} vs the same-work floor${v.against.label}, each round's pair back to back (ours/floor req/s per round: ${perRound}; median)`, ours: oursRps, floor: median(swRuns), ratio: median(ratios), target: '(reported)', unit: 'req/s' });
        }
      }
      if (v.env['REDIS_URL']) await assertRedisUsed(v.env['REDIS_URL'], s.sampleAccountId);
    }
    return rows;
  } finally {
    for (const stop of stops) await stop();
  }
}

function push<K>(m: Map<K, number[]>, k: K, v: number): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** The Redis same-work floor's windows (keys `rl:{…}`), gone before and after it runs. */
async function clearFloorWindows(url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', 'rl:{*', 'COUNT', 10_000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** The Redis variant measured the Redis limiter only if the server kept its windows there. */
async function assertRedisUsed(url: string, accountId: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    let found = 0;
    do {
      // Formsign's own keys only: the Redis same-work floor's (`rl:{…}`) name the same account.
      const [next, keys] = await redis.scan(cursor, 'MATCH', `formsign:rl:*${accountId}*`, 'COUNT', 10_000);
      cursor = next;
      found += keys.length;
    } while (cursor !== '0' && found === 0);
    if (found === 0) throw new Error(`the Redis variant left no rate-limit window for ${accountId} in ${url}: the server did not use Redis`);
  } finally {
    redis.disconnect();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await run()) console.log(`${r.name}\n  ours ${r.ours.toFixed(0)} ${r.unit}, floor ${r.floor.toFixed(0)} ${r.unit}, ratio ${r.ratio.toFixed(2)} (target ${r.target})`);
}
