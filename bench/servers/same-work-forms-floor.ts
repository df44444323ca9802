// The same-work floor for POST /api/v1/forms: the least a server can do per request and still do
// what the contract asks of a form creation, written directly against Fastify and better-sqlite3 with
// nothing of Formsign's in the path — the body checked with the same schema, the key hashed and looked
// up in memory, the limits counted in memory, the prefill checked against the template's field names,
// the form row and its `form.created` event (the same columns and sizes as Formsign's, new ids)
// inserted in one transaction per turn of the event loop, the WAL flushed (fdatasync) before any
// answer of the batch is sent — the durability a 2xx promises — and one JSON access-log line.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { listOperations, loadOpenApiDocument } from '../../src/http/openapi.js';
import { schemasFor } from '../../src/http/plugins/validation.js';
import { createValidators } from '../../src/http/validation.js';
import { accessLog, floorStore, sha256 } from './same-work-common.js';

export interface SameWorkFormsSpec {
  /** Formsign's store: the schema and one form it created (with its event) are copied from it. */
  dbFile: string;
  formId: string;
  key: string;
  accountId: string;
  mode: 'test' | 'live';
  /** The template's field names (the prefill keys a request may use). */
  fieldNames: string[];
  /** Formsign's 201 body for that form. */
  body: string;
  headers: Record<string, string>;
}

const spec = JSON.parse(fs.readFileSync(process.env['BENCH_SAMEWORK_SPEC']!, 'utf8')) as SameWorkFormsSpec;
const source = new SQLite(spec.dbFile, { readonly: true });
// The tables the inserts touch, with what their foreign keys check (Formsign runs with foreign_keys on).
const ddl = source.prepare("select sql from sqlite_master where tbl_name in ('accounts', 'templates', 'forms', 'events') and sql is not null order by type desc, rowid").all() as Array<{ sql: string }>;
const formRow = source.prepare('select * from forms where id = ?').get(spec.formId) as Record<string, unknown>;
const eventRow = source.prepare('select * from events where form_id = ?').get(spec.formId) as Record<string, unknown>;
const accountRow = source.prepare('select * from accounts where id = ?').get(spec.accountId) as Record<string, unknown>;
const templateRow = source.prepare('select * from templates where id = ?').get(formRow['template_id']) as Record<string, unknown>;
source.close();

const { db, insert, openWal } = floorStore('samework', ddl);
db.pragma('foreign_keys = ON');
insert('accounts', accountRow).run(accountRow);
insert('templates', templateRow).run(templateRow);
const insertForm = insert('forms', formRow);
const insertEvent = insert('events', eventRow);
db.prepare('select 1').get();
const walFd = openWal();

const log = accessLog();
const keyHash = sha256(spec.key);
const fieldNames = new Set(spec.fieldNames);
const answer = JSON.parse(spec.body) as Record<string, unknown>;
const LIMIT = 1_000_000_000;
/** The event column that holds the form as it was (named `form` since the publisher renders from it). */
const SNAPSHOT = 'form' in eventRow ? 'form' : 'data';
let windowCount = 0;
let monthly = 0;

// Group commit: the rows of one turn in one transaction, then one fdatasync of the WAL (one in flight;
// commits made meanwhile wait for the next), then the batch's answers.
interface Pending { form: Record<string, unknown>; event: Record<string, unknown>; done: () => void }
let queue: Pending[] = [];
let flushing = false;
const writeBatch = db.transaction((batch: Pending[]) => {
  for (const p of batch) {
    insertForm.run(p.form);
    insertEvent.run(p.event);
  }
});
function drain(): void {
  if (flushing || queue.length === 0) return;
  const batch = queue;
  queue = [];
  writeBatch(batch);
  flushing = true;
  fs.fdatasync(walFd, (err) => {
    if (err) throw err;
    flushing = false;
    for (const p of batch) p.done();
    drain();
  });
}
const commit = (form: Record<string, unknown>, event: Record<string, unknown>) =>
  new Promise<void>((resolve) => {
    queue.push({ form, event, done: resolve });
    if (queue.length === 1) setImmediate(drain);
  });

const doc = loadOpenApiDocument();
const validators = createValidators(doc);
const op = listOperations(doc).find((o) => o.operation.operationId === 'createForm')!;
const app = Fastify({ logger: false });
app.setValidatorCompiler(({ schema }) => validators.body.compile(schema));
app.addHook('onResponse', (req, reply, done) => {
  log.info({ request_id: req.id, method: req.method, route: req.routeOptions.url, status: reply.statusCode, duration_ms: Math.round(reply.elapsedTime * 100) / 100, bytes: Number(reply.getHeader('content-length')), account_id: spec.accountId, mode: spec.mode }, 'request completed');
  done();
});
app.post('/api/v1/forms', { schema: { body: schemasFor(doc, op.operation).body! } }, async (req, reply) => {
  const auth = req.headers.authorization;
  if (!auth?.startsWith('Bearer ') || sha256(auth.slice(7)) !== keyHash) return reply.code(401).send({ error: { code: 'api_key_invalid' } });
  windowCount++;
  monthly++;
  const input = req.body as { template_id: string; prefill?: Record<string, unknown> };
  for (const name of Object.keys(input.prefill ?? {})) if (!fieldNames.has(name)) return reply.code(400).send({ error: { code: 'parameter_invalid', param: `prefill.${name}` } });
  const now = new Date().toISOString();
  const id = `form_${randomBytes(12).toString('hex')}`;
  const body = JSON.stringify({ ...answer, id, created_at: now, updated_at: now });
  await commit(
    { ...formRow, id, values: JSON.stringify(input.prefill ?? {}), created_at: now, updated_at: now },
    { ...eventRow, id: `evt_${randomBytes(12).toString('hex')}`, form_id: id, [SNAPSHOT]: body, ...('form_created_at' in eventRow ? { form_created_at: now } : {}), created_at: now },
  );
  reply.headers(spec.headers);
  reply.header('service-request-id', `req_${randomBytes(12).toString('hex')}`);
  reply.header('x-ratelimit-limit', String(LIMIT)).header('x-ratelimit-remaining', String(LIMIT - windowCount)).header('x-ratelimit-monthly-remaining', String(LIMIT - monthly)).header('location', `/api/v1/forms/${id}`);
  return reply.code(201).type('application/json; charset=utf-8').send(Buffer.from(body));
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as { port: number }).port })}\n`);
