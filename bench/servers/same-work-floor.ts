// The same-work floor for GET /api/v1/templates: the least a server can do per request and still do
// what the contract asks of this answer, written directly against Fastify and better-sqlite3 with
// nothing of Formsign's in the path — the key hashed and looked up in memory, a sliding window and a
// monthly count in memory with their headers, the page's ids read from the same SQLite file with one
// prepared statement (another process may have written since: the list is not cached), each
// template's JSON taken from memory, one JSON access-log line through pino's asynchronous
// destination, the request counted and timed in a Prometheus histogram (#14's metrics), the query
// checked against a schema (a bad `limit` is a 400). With BENCH_SAMEWORK_REDIS set, the window is
// counted in Redis instead: one Lua script per request (read both fixed windows, decide, count), as
// the contract's shared limiter must. Formsign's ratio to this floor is its own overhead; this floor's
// ratio to the bare bytes-from-memory floor is what the required work itself costs on this machine.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import Fastify, { type FastifyReply } from 'fastify';
import { Redis } from 'ioredis';
import { Counter, Histogram, Registry } from 'prom-client';
import { accessLog, sha256 } from './same-work-common.js';

/** One captured answer of Formsign's (see `bench/http.bench.ts`) and the key it was asked with. */
export interface SameWorkRoute {
  path: string;
  key: string;
  accountId: string;
  mode: 'test' | 'live';
  /** The captured list body: the floor answers the same bytes, built from its items. */
  body: string;
  headers: Record<string, string>;
}

export interface SameWorkSpec {
  dbFile: string;
  routes: SameWorkRoute[];
}

const spec = JSON.parse(fs.readFileSync(process.env['BENCH_SAMEWORK_SPEC']!, 'utf8')) as SameWorkSpec;
const db = new SQLite(spec.dbFile, { readonly: true });
// The query Formsign runs for a first page of 20 (repositories/templates.ts, pagination.ts).
const page = db.prepare("select id from templates where account_id = ? and mode = ? and deleted_at is null order by created_at desc, id desc limit 21");
const log = accessLog();

const keys = new Map<string, { accountId: string; mode: 'test' | 'live' }>();
const templateJson = new Map<string, string>();
for (const r of spec.routes) {
  keys.set(sha256(r.key), { accountId: r.accountId, mode: r.mode });
  for (const item of (JSON.parse(r.body) as { data: Array<{ id: string }> }).data) templateJson.set(item.id, JSON.stringify(item));
}

// A two-window sliding counter per (account, route), as the contract's limiter.
const WINDOW_MS = 60_000;
const windows = new Map<string, { start: number; current: number; previous: number }>();
const monthly = new Map<string, number>();
const LIMIT = 1_000_000_000;

// One sliding-window check in Redis: the two fixed windows read, compared and counted atomically.
const WINDOW_LUA = `
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
local prev = tonumber(redis.call('GET', KEYS[2]) or '0')
if prev * tonumber(ARGV[2]) + cur + 1 <= tonumber(ARGV[1]) then
  cur = redis.call('INCR', KEYS[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return {prev, cur}`;
const redisUrl = process.env['BENCH_SAMEWORK_REDIS'];
const redis = redisUrl ? new Redis(redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 1 }) : undefined;
redis?.defineCommand('floorWindow', { numberOfKeys: 2, lua: WINDOW_LUA });
type FloorWindow = (cur: string, prev: string, limit: number, weight: string, ttl: number) => Promise<[number, number]>;
process.on('SIGTERM', () => {
  redis?.disconnect();
  process.exit(0);
});

const registry = new Registry();
const labelNames = ['method', 'route', 'status_class'] as const;
const requests = new Counter({ name: 'floor_http_requests_total', help: 'requests', labelNames, registers: [registry] });
const duration = new Histogram({ name: 'floor_http_request_duration_seconds', help: 'latency', labelNames, buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry] });
const observed = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();

const app = Fastify({ logger: false });
app.addHook('onResponse', (req, reply, done) => {
  const route = req.routeOptions.url ?? 'unmatched';
  const cls = `${Math.floor(reply.statusCode / 100)}xx`;
  const mkey = `${req.method} ${route} ${cls}`;
  let m = observed.get(mkey);
  if (!m) observed.set(mkey, (m = { count: requests.labels(req.method, route, cls), time: duration.labels(req.method, route, cls) }));
  m.count.inc();
  m.time.observe(reply.elapsedTime / 1000);
  log.info({ request_id: req.id, method: req.method, route: req.routeOptions.url, status: reply.statusCode, duration_ms: Math.round(reply.elapsedTime * 100) / 100, bytes: Number(reply.getHeader('content-length')), account_id: (req as unknown as { accountId?: string }).accountId ?? null }, 'request completed');
  done();
});
const routeHeaders = new Map(spec.routes.map((r) => [sha256(r.key), r.headers]));
const paths = new Set(spec.routes.map((r) => new URL(r.path, 'http://x').pathname));
const querystring = { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 100 }, starting_after: { type: 'string' }, ending_before: { type: 'string' } } } as const;
for (const path of paths) {
  app.get(path, { schema: { querystring } }, (req, reply) => {
    const auth = req.headers.authorization;
    const hash = auth?.startsWith('Bearer ') ? sha256(auth.slice(7)) : '';
    const who = keys.get(hash);
    if (!who) return reply.code(401).send({ error: { code: 'api_key_invalid' } });
    (req as unknown as { accountId?: string }).accountId = who.accountId;
    const now = Date.now();
    const wkey = `${who.accountId}:GET ${path}`;
    const start = now - (now % WINDOW_MS);
    // In memory the answer is synchronous (no promise per request); with Redis it waits for the script.
    if (redis) {
      const index = start / WINDOW_MS;
      const weight = (1 - (now - start) / WINDOW_MS).toFixed(6);
      return (redis as unknown as { floorWindow: FloorWindow }).floorWindow(`rl:{${wkey}}:${index}`, `rl:{${wkey}}:${index - 1}`, LIMIT, weight, WINDOW_MS * 2).then(([prev, cur]) => answer(reply, hash, who, start, Math.floor(Number(prev) * Number(weight)) + Number(cur) - 1));
    }
    let w = windows.get(wkey);
    if (!w) windows.set(wkey, (w = { start, current: 0, previous: 0 }));
    if (w.start !== start) w = Object.assign(w, { previous: w.start === start - WINDOW_MS ? w.current : 0, current: 0, start });
    const used = Math.floor(w.previous * (1 - (now - start) / WINDOW_MS)) + w.current;
    w.current++;
    return answer(reply, hash, who, start, used);
  });
}

function answer(reply: FastifyReply, hash: string, who: { accountId: string; mode: 'test' | 'live' }, start: number, used: number): FastifyReply {
  monthly.set(who.accountId, (monthly.get(who.accountId) ?? 0) + 1);
  const ids = page.all(who.accountId, who.mode) as Array<{ id: string }>;
  const items = ids.slice(0, 20).map((row) => templateJson.get(row.id)!);
  const body = `{"object":"list","data":[${items.join(',')}],"has_more":${ids.length > 20}}`;
  reply.headers(routeHeaders.get(hash)!);
  reply.header('service-request-id', `req_${randomBytes(12).toString('hex')}`);
  reply.header('x-ratelimit-limit', String(LIMIT)).header('x-ratelimit-remaining', String(LIMIT - used - 1)).header('x-ratelimit-reset', String(Math.ceil((start + WINDOW_MS) / 1000)));
  return reply.code(200).type('application/json; charset=utf-8').send(Buffer.from(body));
}
await app.listen({ port: 0, host: '127.0.0.1' });
// The same bytes as Formsign's answer, or this floor measures something else.
for (const r of spec.routes) {
  const res = await app.inject({ method: 'GET', url: r.path, headers: { authorization: `Bearer ${r.key}` } });
  if (res.body !== r.body) throw new Error(`same-work floor: ${r.path} answers ${res.body.length} chars, not Formsign's ${r.body.length}:\n${res.body.slice(0, 300)}\n${r.body.slice(0, 300)}`);
}
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as { port: number }).port })}\n`);
