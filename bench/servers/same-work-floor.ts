// The same-work floor for GET /api/v1/templates: the least a server can do per request and still do
// what the contract asks of this answer, written directly against Fastify and better-sqlite3 with
// nothing of Formsign's in the path — the key hashed and looked up in memory, a sliding window and a
// monthly count in memory with their headers, the page's ids read from the same SQLite file with one
// prepared statement (another process may have written since: the list is not cached), each
// template's JSON taken from memory, one JSON access-log line through pino's asynchronous
// destination. Formsign's ratio to this floor is its own overhead; this floor's ratio to the bare
// bytes-from-memory floor is what the required work itself costs on this machine.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
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

const app = Fastify({ logger: false });
app.addHook('onResponse', (req, reply, done) => {
  log.info({ request_id: req.id, method: req.method, route: req.routeOptions.url, status: reply.statusCode, duration_ms: Math.round(reply.elapsedTime * 100) / 100, bytes: Number(reply.getHeader('content-length')), account_id: (req as unknown as { accountId?: string }).accountId ?? null }, 'request completed');
  done();
});
const routeHeaders = new Map(spec.routes.map((r) => [sha256(r.key), r.headers]));
const paths = new Set(spec.routes.map((r) => new URL(r.path, 'http://x').pathname));
for (const path of paths) {
  app.get(path, (req, reply) => {
    const auth = req.headers.authorization;
    const hash = auth?.startsWith('Bearer ') ? sha256(auth.slice(7)) : '';
    const who = keys.get(hash);
    if (!who) return reply.code(401).send({ error: { code: 'api_key_invalid' } });
    (req as unknown as { accountId?: string }).accountId = who.accountId;
    const now = Date.now();
    const wkey = `${who.accountId}:GET ${path}`;
    let w = windows.get(wkey);
    const start = now - (now % WINDOW_MS);
    if (!w) windows.set(wkey, (w = { start, current: 0, previous: 0 }));
    if (w.start !== start) w = Object.assign(w, { previous: w.start === start - WINDOW_MS ? w.current : 0, current: 0, start });
    const used = Math.floor(w.previous * (1 - (now - start) / WINDOW_MS)) + w.current;
    w.current++;
    monthly.set(who.accountId, (monthly.get(who.accountId) ?? 0) + 1);
    const ids = page.all(who.accountId, who.mode) as Array<{ id: string }>;
    const items = ids.slice(0, 20).map((row) => templateJson.get(row.id)!);
    const body = `{"object":"list","data":[${items.join(',')}],"has_more":${ids.length > 20}}`;
    reply.headers(routeHeaders.get(hash)!);
    reply.header('service-request-id', `req_${randomBytes(12).toString('hex')}`);
    reply.header('x-ratelimit-limit', String(LIMIT)).header('x-ratelimit-remaining', String(LIMIT - used - 1)).header('x-ratelimit-reset', String(Math.ceil((start + WINDOW_MS) / 1000)));
    return reply.code(200).type('application/json; charset=utf-8').send(Buffer.from(body));
  });
}
await app.listen({ port: 0, host: '127.0.0.1' });
// The same bytes as Formsign's answer, or this floor measures something else.
for (const r of spec.routes) {
  const res = await app.inject({ method: 'GET', url: r.path, headers: { authorization: `Bearer ${r.key}` } });
  if (res.body !== r.body) throw new Error(`same-work floor: ${r.path} answers ${res.body.length} chars, not Formsign's ${r.body.length}:\n${res.body.slice(0, 300)}\n${r.body.slice(0, 300)}`);
}
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as { port: number }).port })}\n`);
