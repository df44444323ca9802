// The same-work floor for POST /api/v1/forms/{id}/send: the least a server can do per request and
// still do what Formsign's send does, written directly against Fastify and better-sqlite3 with nothing
// of Formsign's runtime in the path but its request validation (installValidators, the route's
// schemasFor and its media-type and JSON-body hooks: the path parameter, query and body checked, NUL
// refused first), the key hashed and looked up in memory,
// the limits counted in memory, the addresses checked; then Formsign's statements: the form read and
// its fields taken from the template cache before the transaction (loadForm, formFields), and in the
// request's unit of the group commit (a savepoint, as Formsign's) the form locked (UPDATE … RETURNING),
// its recipients read, the account read (findAccount), the recipient (its signing token's hash), the
// composed e-mail and its delivery job written, the form updated and the `form.sent` event (the form
// with all its recipients) written; the WAL flushed (fdatasync) before any answer of the batch is sent;
// per request a Prometheus counter and histogram observed and one JSON access-log line. The e-mail is
// composed by Formsign's own `composeMessage`: a pure function (no clock, no I/O, no state), so the
// floor composes the very same subject, text and HTML rather than a look-alike of another size.
//
// What Formsign's inline worker does on SQLite is done too, with its statements, off every request's
// path: once a batch is answered, in the next group commit (waited for by nobody, as Formsign commits a
// delivery's outcome without waiting for the disk), the publisher (pending events? then claim up to
// 200, read the account's enabled webhooks, mark them published), the claim of up to 8 due jobs, and
// per job the message read, then one unit: the job marked done (fenced by its attempt), the message and
// the recipient marked delivered, and the next due job claimed for the slot (run in turn).
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { Counter, Histogram, Registry } from 'prom-client';
import { composeMessage } from '../../src/domain/sending/compose-message.js';
import { listOperations, loadOpenApiDocument, type OpenApiOperation } from '../../src/http/openapi.js';
import { acceptedMediaTypes, installValidators, requireJsonBody, requireMediaType, schemasFor } from '../../src/http/plugins/validation.js';
import { accessLog, floorStore, sha256 } from './same-work-common.js';

export interface SameWorkSendSpec {
  /** Formsign's store: the schema, the account, the template and the forms are copied from it. */
  dbFile: string;
  key: string;
  accountId: string;
  mode: 'test' | 'live';
  /** The forms the load client sends to. */
  formIds: string[];
  /** The form of Formsign's sample send, sent the same request at start to check the answer's shape. */
  sampleFormId: string;
  sampleRequest: string;
  /** Formsign's 200 body for the sample send. */
  body: string;
  headers: Record<string, string>;
}

type Row = Record<string, unknown>;
interface FormRow { id: string; status: string; name: string | null; template_id: string | null; template_version: number | null; fields: string | null; values: string; metadata: string; expires_in_days: number; created_at: string; sent_at: string | null; completed_at: string | null; expires_at: string | null }
interface TemplateRow { id: string; account_id: string; mode: string; version: number; fields: string }
interface RecipientState { id: string; name: string | null; email: string | null; phone: string | null; channel: string; signer: number; status: string; delivery_status: string; delivery_error: string | null; sent_at: string; viewed_at: string | null; signed_at: string | null; address_key: string }
interface SendBody { recipients: Array<{ channel: 'email' | 'sms'; email?: string; phone?: string; name: string; signer?: number }> }
interface JobRow { id: string; account_id: string; mode: string; payload: string; attempts: number }
interface MessageState { id: string; recipient_id: string; status: string }
interface EventState { id: string; account_id: string; mode: string; type: string; created_at: string }

const spec = JSON.parse(fs.readFileSync(process.env['BENCH_SAMEWORK_SPEC']!, 'utf8')) as SameWorkSendSpec;
const sample = JSON.parse(spec.body) as { recipients: Array<{ signing_url: string }> };

const TABLES = ['accounts', 'templates', 'forms', 'recipients', 'messages', 'outbox', 'events', 'webhooks'];
const source = new SQLite(spec.dbFile, { readonly: true });
// The tables a send and its worker touch, with what their foreign keys check (Formsign runs with foreign_keys on).
const ddl = source.prepare(`select sql from sqlite_master where tbl_name in (${TABLES.map(() => '?').join(', ')}) and sql is not null order by type desc, rowid`).all(...TABLES) as Array<{ sql: string }>;
const accountRow = source.prepare('select * from accounts where id = ?').get(spec.accountId) as Row;
const wanted = new Set([...spec.formIds, spec.sampleFormId]);
const formRows = (source.prepare('select * from forms where account_id = ? and mode = ?').all(spec.accountId, spec.mode) as Row[]).filter((f) => wanted.has(f['id'] as string));
if (formRows.length !== wanted.size) throw new Error(`${formRows.length} of the ${wanted.size} forms are in ${spec.dbFile}`);
const templateIds = [...new Set(formRows.map((f) => f['template_id']).filter((t): t is string => typeof t === 'string'))];
const templateRows = templateIds.map((id) => source.prepare('select * from templates where id = ?').get(id) as Row);
// The rows of Formsign's sample send: their columns (and so their sizes) are the ones written here.
const recipientRow = source.prepare('select * from recipients where form_id = ?').get(spec.sampleFormId) as Row;
const messageRow = source.prepare('select * from messages where form_id = ?').get(spec.sampleFormId) as Row;
const jobRow = source.prepare("select * from outbox where kind = 'message.deliver' limit 1").get() as Row;
const eventRow = source.prepare("select * from events where form_id = ? and type = 'form.sent'").get(spec.sampleFormId) as Row;
// Ours' webhooks, should the account have any: the publisher reads them per batch.
const webhookRows = source.prepare('select * from webhooks where account_id = ?').all(spec.accountId) as Row[];
source.close();
if (!recipientRow || !messageRow || !jobRow || !eventRow) throw new Error(`the sample send left no recipient, message, job or form.sent event in ${spec.dbFile}`);
if (webhookRows.some((w) => w['status'] === 'enabled')) throw new Error('the floor publishes events to no webhook: the bench account must have none enabled');

// Foreign keys and temporary structures in memory, as Formsign's.
const { db, insert, openWal } = floorStore('samework-send', ddl, ['temp_store = MEMORY']);
db.pragma('foreign_keys = ON');
insert('accounts', accountRow).run(accountRow);
for (const t of templateRows) insert('templates', t).run(t);
for (const w of webhookRows) insert('webhooks', w).run(w);
// Ours started from these forms as drafts, and by now has sent them: they start here as they were seeded.
const insertSeedForm = insert('forms', formRows[0]!);
db.transaction(() => {
  for (const f of formRows) insertSeedForm.run({ ...f, status: 'draft', sent_at: null, expires_at: null, completed_at: null, updated_at: f['created_at'] });
})();

// Formsign's statements, as its repositories issue them.
const insertRecipient = insert('recipients', recipientRow);
const insertMessage = insert('messages', messageRow);
const insertJob = insert('outbox', jobRow);
const insertEvent = insert('events', eventRow);
// findForm (loadForm), findTemplate (a template cache miss), lockForm, listRecipientsOfForm, findAccount, updateForm.
const selectForm = db.prepare('select * from forms where account_id = ? and mode = ? and id = ?');
const selectTemplate = db.prepare('select * from templates where account_id = ? and mode = ? and id = ?');
const lockForm = db.prepare('update forms set updated_at = ? where account_id = ? and mode = ? and id = ? returning *');
const selectRecipients = db.prepare('select * from recipients where account_id = ? and mode = ? and form_id = ? order by position');
const selectAccount = db.prepare('select * from accounts where id = ?');
const updateForm = db.prepare('update forms set status = ?, sent_at = ?, expires_at = ?, updated_at = ? where account_id = ? and mode = ? and id = ?');
// The worker's: claimJobs (the waiting and the expired-lease lookups, the earliest `n` of both), findMessage,
// markJobDone (fenced by the attempt), the message's and the recipient's outcome updates, nextDueAt.
const claimSql = (n: number) =>
  `with "waiting" as (select "id", "run_at" from "outbox" where status in ('pending', 'failed') and "run_at" <= ? order by "run_at" limit ${n}), ` +
  `"expired" as (select "id", "run_at" from "outbox" where status = 'running' and "locked_until" <= ? order by "run_at" limit ${n}) ` +
  'update "outbox" set "status" = ?, "attempts" = attempts + 1, "locked_until" = ?, "locked_by" = ?, "updated_at" = ? ' +
  `where "id" in (select "due"."id" from (select "id", "run_at" from "waiting" union all select "id", "run_at" from "expired") as "due" order by "due"."run_at" limit ${n}) returning *`;
const claims = new Map<number, SQLite.Statement>();
const findMessage = db.prepare('select * from messages where account_id = ? and mode = ? and id = ?');
const markJobDone = db.prepare("update outbox set status = 'done', locked_until = null, last_error = null, updated_at = ? where id = ? and attempts = ? and status = 'running'");
const messageDelivered = db.prepare('update messages set status = ?, transport = ?, provider_message_id = ?, error = null, delivered_at = ?, updated_at = ? where account_id = ? and mode = ? and id = ?');
const recipientDelivered = db.prepare('update recipients set delivery_status = ?, delivery_error = ?, updated_at = ? where account_id = ? and mode = ? and id = ?');
const nextWaiting = db.prepare("select min(run_at) as t from outbox where status in ('pending', 'failed')");
const nextLeased = db.prepare("select min(locked_until) as t from outbox where status = 'running'");
// The publisher's: hasPendingEvents, claimPendingEvents, enabledWebhooksOf, markEventsPublished.
const hasPendingEvents = db.prepare('select id from events where published_at is null limit 1');
const claimPendingEvents = db.prepare('select * from events where published_at is null order by created_at limit 200');
const webhooksOf = new Map<number, SQLite.Statement>();
const markPublished = new Map<number, SQLite.Statement>();
const prepared = (cache: Map<number, SQLite.Statement>, n: number, text: (marks: string) => string) => {
  let s = cache.get(n);
  if (!s) cache.set(n, (s = db.prepare(text(Array.from({ length: n }, () => '?').join(', ')))));
  return s;
};
const begin = db.prepare('begin immediate');
const commitTx = db.prepare('commit');
const savepoint = db.prepare('savepoint unit');
const releaseUnit = db.prepare('release unit');
const rollbackUnit = db.prepare('rollback to unit');
db.prepare('select 1').get();
const walFd = openWal();

const log = accessLog();
const keyHash = sha256(spec.key);
const LIMIT = 1_000_000_000;
const MAX_RECIPIENTS = 100;
const DAY_MS = 86_400_000;
const SENDABLE = new Set(['draft', 'sent', 'viewed']);
// The HTML standard's valid e-mail address, as Formsign checks it.
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
// A signing link must be shown again for every recipient each time the form is, and only the token's
// hash is stored: so the token is derived from the recipient's id under a secret key (256 bits), as
// Formsign does, and the link base is Formsign's (the same length).
const linkKey = randomBytes(32);
const sampleUrl = sample.recipients[0]!.signing_url;
const linkBase = sampleUrl.slice(0, sampleUrl.indexOf('/sign/') + '/sign/'.length);
const token = (recipientId: string) => createHmac('sha256', linkKey).update(`sign:${recipientId}`).digest('base64url');
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
let windowCount = 0;
let monthly = 0;

// Field sets as Formsign keeps them: parsed once, with each field's JSON object ready to take its value.
interface FieldSet { defs: Array<{ name: string }>; byName: Map<string, unknown>; json: string; openObjects: string[] }
function fieldSet(json: string): FieldSet {
  const defs = JSON.parse(json) as Array<{ name: string }>;
  return { defs, byName: new Map(defs.map((d) => [d.name, d])), json, openObjects: defs.map((d) => JSON.stringify(d).slice(0, -1)) };
}
// The template cache as Formsign's (an LRU Map by id, the partition and the version checked on a hit):
// a form made from a template reads its fields from there, the template row only on a miss.
interface CachedTemplate { id: string; accountId: string; mode: string; version: number; fields: FieldSet }
const templateCache = new Map<string, CachedTemplate>();
const cacheGet = (id: string) => {
  const hit = templateCache.get(id);
  if (hit) {
    templateCache.delete(id);
    templateCache.set(id, hit);
  }
  return hit;
};
const remember = (t: TemplateRow) => {
  const c: CachedTemplate = { id: t.id, accountId: t.account_id, mode: t.mode, version: t.version, fields: fieldSet(t.fields) };
  templateCache.set(t.id, c);
  return c;
};
// Formsign's forms were made through its cache (createForm), which holds their template since.
for (const t of templateRows) remember(t as unknown as TemplateRow);
function formFields(row: FormRow): FieldSet {
  if (row.fields !== null) return fieldSet(row.fields);
  const id = row.template_id!;
  const version = row.template_version ?? 1;
  const hit = cacheGet(id);
  if (hit?.id === id && hit.accountId === spec.accountId && hit.mode === spec.mode && hit.version === version) return hit.fields;
  const t = selectTemplate.get(spec.accountId, spec.mode, id) as TemplateRow | undefined;
  // Earlier versions' fields are in template_versions, which the bench's forms never need.
  if (!t || t.version !== version) throw new Error(`form ${row.id}: template ${id} version ${version} is not in the floor's store`);
  return remember(t).fields;
}
const str = (s: string | null) => (s === null ? 'null' : JSON.stringify(s));
function fieldsWithValuesJson(set: FieldSet, valuesJson: string): string {
  const values = JSON.parse(valuesJson) as Record<string, unknown>;
  const byName = new Map<string, string>();
  for (const name in values) byName.set(name, JSON.stringify(values[name]));
  let out = '[';
  for (let i = 0; i < set.defs.length; i++) out += `${i === 0 ? '' : ','}${set.openObjects[i]!},"value":${byName.get(set.defs[i]!.name) ?? 'null'}}`;
  return `${out}]`;
}

// Per request, as Formsign's metrics: a counter and a latency histogram by method, route and status
// class, their children kept per label set.
const registry = new Registry();
const LABELS = ['method', 'route', 'status_class'] as const;
const requestsTotal = new Counter({ name: 'formsign_http_requests_total', help: 'HTTP requests.', labelNames: LABELS, registers: [registry] });
const requestSeconds = new Histogram({ name: 'formsign_http_request_duration_seconds', help: 'HTTP request time.', labelNames: LABELS, buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry] });
const CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];
const metricChildren = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();
function observeRequest(method: string, route: string, status: number, seconds: number): void {
  const cls = CLASSES[Math.min(4, Math.max(0, Math.floor(status / 100) - 1))]!;
  const key = `${method} ${route} ${cls}`;
  let child = metricChildren.get(key);
  if (!child) metricChildren.set(key, (child = { count: requestsTotal.labels(method, route, cls), time: requestSeconds.labels(method, route, cls) }));
  child.count.inc();
  child.time.observe(seconds);
}

// Group commit: a request's unit (a savepoint, as Formsign's) goes into the transaction open for this
// turn (so a later request of the same batch sees its rows), which is committed at the end of the
// turn; then one fdatasync of the WAL (one in flight; requests arriving meanwhile write into the next
// transaction and wait for the next flush), then the batch's answers. The worker runs once a batch
// with new jobs is answered, in the next transaction.
let open = false;
let scheduled = false;
let flushing = false;
let waiters: Array<() => void> = [];
let enqueued = false;
function write(): void {
  if (!open) {
    begin.run();
    open = true;
  }
  if (!scheduled) {
    scheduled = true;
    setImmediate(drain);
  }
}
/** One unit of the open transaction: rolled back alone when it throws. */
function unit<T>(run: () => T): T {
  write();
  savepoint.run();
  try {
    const value = run();
    releaseUnit.run();
    return value;
  } catch (error) {
    rollbackUnit.run();
    releaseUnit.run();
    throw error;
  }
}
function drain(): void {
  scheduled = false;
  if (flushing || !open) return;
  commitTx.run();
  open = false;
  const batch = waiters;
  const wake = enqueued;
  waiters = [];
  enqueued = false;
  // Only the worker's units: committed, waited for by nobody.
  if (batch.length === 0) return;
  flushing = true;
  fs.fdatasync(walFd, (err) => {
    if (err) throw err;
    flushing = false;
    for (const done of batch) done();
    if (wake) runWorker();
    if (open) drain();
  });
}
const committed = () => new Promise<void>((resolve) => waiters.push(resolve));

// The worker, as Formsign's dispatcher runs on SQLite with the dev outbox (no SMTP_URL): the
// publisher, a claim of up to 8 due jobs, and each job's chain (its settling claims the next).
const CONCURRENCY = 8;
const LEASE_MS = 60_000;
const PUBLISH_BATCH = 200;
const workerId = `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
const iso = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();
function publishPending(): void {
  if (hasPendingEvents.get() === undefined) return;
  for (;;) {
    const n = unit(() => {
      const events = claimPendingEvents.all() as EventState[];
      if (events.length === 0) return 0;
      const now = iso();
      const accounts = [...new Set(events.map((e) => e.account_id))];
      const hooks = prepared(webhooksOf, accounts.length, (m) => `select * from webhooks where account_id in (${m}) and status = 'enabled'`).all(...accounts) as Array<{ account_id: string; mode: string; created_at: string; events: string }>;
      for (const e of events) {
        const targets = hooks.filter((h) => h.account_id === e.account_id && h.mode === e.mode && h.created_at <= e.created_at && (JSON.parse(h.events) as string[]).includes(e.type));
        if (targets.length > 0) throw new Error('the floor has no webhook deliveries to write');
      }
      const ids = events.map((e) => e.id);
      prepared(markPublished, ids.length, (m) => `update events set published_at = ? where id in (${m}) and published_at is null`).run(now, ...ids);
      return events.length;
    });
    if (n < PUBLISH_BATCH) return;
  }
}
const claimJobs = (n: number): JobRow[] => {
  const now = iso();
  return prepared(claims, n, () => claimSql(n)).all(now, now, 'running', iso(LEASE_MS), workerId, now) as JobRow[];
};
/** One job: its message read, then one unit that settles it and claims the next, which is returned. */
function runJob(row: JobRow): JobRow | undefined {
  const messageId = (JSON.parse(row.payload) as { message_id: string }).message_id;
  const message = findMessage.get(row.account_id, row.mode, messageId) as MessageState | undefined;
  if (!message) throw new Error(`message ${messageId} does not exist`);
  const at = iso();
  return unit(() => {
    if (markJobDone.run(at, row.id, row.attempts).changes !== 1) return undefined;
    if (message.status !== 'delivered') {
      messageDelivered.run('delivered', 'dev', null, at, at, row.account_id, row.mode, message.id);
      recipientDelivered.run('delivered', null, at, row.account_id, row.mode, message.recipient_id);
    }
    return claimJobs(1)[0];
  });
}
function runWorker(): void {
  publishPending();
  const rows = unit(() => claimJobs(CONCURRENCY));
  if (rows.length < CONCURRENCY) {
    nextWaiting.get();
    nextLeased.get();
  }
  for (const first of rows) {
    for (let job: JobRow | undefined = first; job; ) job = runJob(job);
  }
}

const presentRecipient = (r: RecipientState) => ({
  object: 'recipient', id: r.id, name: r.name ?? '', email: r.email, phone: r.phone, channel: r.channel, signer: r.signer, status: r.status,
  delivery_status: r.delivery_status, delivery_error: r.delivery_error, signing_url: linkBase + token(r.id), sent_at: r.sent_at, viewed_at: r.viewed_at, signed_at: r.signed_at,
});
const snapshotRecipient = (r: RecipientState) => ({
  id: r.id, name: r.name, email: r.email, phone: r.phone, channel: r.channel, signer: r.signer, status: r.status,
  delivery_status: r.delivery_status, delivery_error: r.delivery_error, sent_at: r.sent_at, viewed_at: r.viewed_at, signed_at: r.signed_at,
});

const doc = loadOpenApiDocument();
const op = listOperations(doc).find((o) => o.operation.operationId === 'sendForm')!;
// The route's schemas as Formsign gives them: the query string, the path parameter and the body.
const schemas = schemasFor(doc, op.operation, doc.paths[op.path]?.['parameters'] as OpenApiOperation['parameters']);
if (!schemas.params || !schemas.body) throw new Error('sendForm has no path parameter or body schema in openapi.yaml');
const app = Fastify({ logger: false });
installValidators(app, doc);
app.addHook('onResponse', (req, reply, done) => {
  const route = req.routeOptions.url;
  const ms = reply.elapsedTime;
  observeRequest(req.method, route ?? 'unmatched', reply.statusCode, ms / 1000);
  log.info({ request_id: req.id, method: req.method, route: route ?? null, status: reply.statusCode, duration_ms: Math.round(ms * 100) / 100, bytes: Number(reply.getHeader('content-length')), account_id: spec.accountId, mode: spec.mode }, 'request completed');
  done();
});
/** A send refused (its unit rolled back): the status and the error's code and parameter. */
class Refusal extends Error {
  constructor(readonly status: number, readonly code: string, readonly param?: string) {
    super(code);
  }
}
app.post(op.route, { schema: schemas, preParsing: requireMediaType(acceptedMediaTypes(op.operation)), preValidation: requireJsonBody }, async (req, reply) => {
  const auth = req.headers.authorization;
  if (!auth?.startsWith('Bearer ') || sha256(auth.slice(7)) !== keyHash) return reply.code(401).send({ error: { code: 'api_key_invalid' } });
  windowCount++;
  monthly++;
  const limits = () => reply.header('x-ratelimit-limit', String(LIMIT)).header('x-ratelimit-remaining', String(LIMIT - windowCount)).header('x-ratelimit-monthly-remaining', String(LIMIT - monthly));
  const fail = (r: Refusal) => limits().code(r.status).send({ error: { code: r.code, ...(r.param ? { param: r.param } : {}) } });
  const input = req.body as SendBody;
  const incoming: Array<{ name: string; email: string; addressKey: string; signer: number | undefined }> = [];
  const inCall = new Set<string>();
  for (const [i, r] of input.recipients.entries()) {
    const name = r.name.trim();
    if (!name) return fail(new Refusal(400, 'parameter_invalid', `recipients[${i}].name`));
    // The benchmark sends e-mail only; an SMS would need the phone rules this floor leaves out.
    if (r.channel !== 'email' || r.email === undefined) return fail(new Refusal(400, 'parameter_invalid', `recipients[${i}].channel`));
    const email = r.email.trim();
    if (!EMAIL.test(email)) return fail(new Refusal(400, 'parameter_invalid', `recipients[${i}].email`));
    const addressKey = email.toLowerCase();
    if (inCall.has(addressKey)) return fail(new Refusal(400, 'parameter_invalid', `recipients[${i}]`));
    inCall.add(addressKey);
    incoming.push({ name, email, addressKey, signer: r.signer });
  }
  const formId = (req.params as { form_id: string }).form_id;
  // loadForm and formFields, before the transaction.
  const read = selectForm.get(spec.accountId, spec.mode, formId) as FormRow | undefined;
  if (!read) return fail(new Refusal(404, 'resource_not_found'));
  const fields = formFields(read);
  const now = new Date().toISOString();
  let body: string;
  try {
    body = unit(() => {
      const form = lockForm.get(now, spec.accountId, spec.mode, formId) as FormRow | undefined;
      if (!form) throw new Refusal(404, 'resource_not_found');
      if (!SENDABLE.has(form.status)) throw new Refusal(409, 'form_not_sendable');
      if (form.expires_at !== null && form.expires_at <= now) throw new Refusal(409, 'form_expired');
      const existing = selectRecipients.all(spec.accountId, spec.mode, form.id) as RecipientState[];
      const sentTo = new Set(existing.map((r) => `${r.channel}:${r.address_key}`));
      const again = incoming.findIndex((r) => sentTo.has(`email:${r.addressKey}`));
      if (again !== -1) throw new Refusal(409, 'form_already_sent', `recipients[${again}]`);
      if (existing.length + incoming.length > MAX_RECIPIENTS) throw new Refusal(400, 'parameter_invalid', 'recipients');
      const taken = new Set(existing.map((r) => r.signer));
      for (const [i, r] of incoming.entries()) {
        if (r.signer === undefined) continue;
        if (taken.has(r.signer)) throw new Refusal(400, 'parameter_invalid', `recipients[${i}].signer`);
        taken.add(r.signer);
      }
      let nextSigner = 1;
      const expiresAt = form.expires_at ?? new Date(Date.parse(now) + form.expires_in_days * DAY_MS).toISOString();
      const account = selectAccount.get(spec.accountId) as { name: string | null } | undefined;
      const added: RecipientState[] = [];
      for (const [i, r] of incoming.entries()) {
        let signer = r.signer;
        if (signer === undefined) {
          while (taken.has(nextSigner)) nextSigner++;
          signer = nextSigner;
          taken.add(signer);
        }
        const id = newId('rcp');
        const recipient: RecipientState = { id, name: r.name, email: r.email, phone: null, channel: 'email', signer, status: 'sent', delivery_status: 'queued', delivery_error: null, sent_at: now, viewed_at: null, signed_at: null, address_key: r.addressKey };
        insertRecipient.run({
          ...recipientRow, ...recipient, account_id: spec.accountId, mode: spec.mode, form_id: form.id, position: existing.length + i, token_hash: sha256(token(id)),
          viewed_ip: null, viewed_user_agent: null, signed_ip: null, signed_user_agent: null, created_at: now, updated_at: now,
        });
        const message = composeMessage({ channel: 'email', to: r.email, recipientName: r.name, formName: form.name ?? 'a document', accountName: account?.name ?? 'Formsign', signingUrl: linkBase + token(id), expiresAt });
        const messageId = newId('msg');
        insertMessage.run({
          ...messageRow, id: messageId, account_id: spec.accountId, mode: spec.mode, form_id: form.id, recipient_id: id, channel: 'email', to_address: r.email,
          subject: message.subject ?? null, text: message.text, html: message.html ?? null, transport: null, status: 'queued', provider_message_id: null, error: null,
          created_at: now, updated_at: now, delivered_at: null,
        });
        insertJob.run({
          ...jobRow, id: newId('job'), account_id: spec.accountId, mode: spec.mode, kind: 'message.deliver', version: 1, payload: JSON.stringify({ message_id: messageId }),
          status: 'pending', attempts: 0, run_at: now, locked_until: null, locked_by: null, last_error: null, created_at: now, updated_at: now,
        });
        added.push(recipient);
      }
      const status = form.status === 'draft' ? 'sent' : form.status;
      const sentAt = form.sent_at ?? now;
      updateForm.run(status, sentAt, expiresAt, now, spec.accountId, spec.mode, form.id);
      const all = [...existing, ...added];
      const head = `"id":${str(form.id)},"mode":${str(spec.mode)},"status":${str(status)},"name":${str(form.name)},"template_id":${str(form.template_id)}`;
      const times = `"created_at":${str(form.created_at)},"sent_at":${str(sentAt)},"completed_at":${str(form.completed_at)},"expires_at":${str(expiresAt)}`;
      insertEvent.run({
        ...eventRow, id: newId('evt'), account_id: spec.accountId, mode: spec.mode, type: 'form.sent', form_id: form.id, form_created_at: form.created_at, created_at: now, published_at: null,
        form: `{${head},${times},"values":${form.values},"metadata":${form.metadata},"recipients":${JSON.stringify(all.map(snapshotRecipient))}}`,
      });
      return `{"object":"form",${head},"fields":${fieldsWithValuesJson(fields, form.values)},"recipients":${JSON.stringify(all.map(presentRecipient))},${times},"metadata":${form.metadata}}`;
    });
  } catch (error) {
    if (error instanceof Refusal) return fail(error);
    throw error;
  }
  enqueued = true;
  await committed();
  reply.headers(spec.headers);
  reply.header('service-request-id', `req_${randomBytes(16).toString('hex')}`);
  limits();
  return reply.code(200).type('application/json; charset=utf-8').send(Buffer.from(body));
});

// What the benchmark checks after a run, as it checks Formsign's store: one recipient per 200, each
// message delivered.
app.get('/floor/stats', async () => ({
  recipients: (db.prepare('select count(*) as n from recipients').get() as { n: number }).n,
  delivered: (db.prepare("select count(*) as n from messages where status = 'delivered'").get() as { n: number }).n,
  unpublished: (db.prepare('select count(*) as n from events where published_at is null').get() as { n: number }).n,
}));

// The same request as Formsign's sample send, to the same form: the answer must have the same keys.
const shape = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.length === 0 ? [] : [shape(v[0])];
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, shape((v as Row)[k])]));
  return null;
};
const check = await app.inject({ method: 'POST', url: `/api/v1/forms/${spec.sampleFormId}/send`, headers: { authorization: `Bearer ${spec.key}`, 'content-type': 'application/json' }, payload: spec.sampleRequest });
if (check.statusCode !== 200) throw new Error(`the floor's sample send answered ${check.statusCode}: ${check.body}`);
if (JSON.stringify(shape(JSON.parse(check.body))) !== JSON.stringify(shape(JSON.parse(spec.body)))) throw new Error(`the floor answers a send with other keys than Formsign:\n${check.body}\n${spec.body}`);
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as { port: number }).port, bytes: Buffer.byteLength(check.body), formsignBytes: Buffer.byteLength(spec.body) })}\n`);
