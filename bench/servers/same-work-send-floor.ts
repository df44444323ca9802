// The same-work floor for POST /api/v1/forms/{id}/send: the least a server can do per request and
// still do what the contract asks of a send, written directly against Fastify and better-sqlite3 with
// nothing of Formsign's runtime in the path — the body checked with the same schema, the key hashed and
// looked up in memory, the limits counted in memory, the address checked, the form and its recipients
// read (sendable, not already sent to that address), then the recipient (its signing token's hash),
// the composed e-mail, its delivery job, the form's new status and the `form.sent` event (the form
// with all its recipients) written in one transaction per turn of the event loop, the WAL flushed
// (fdatasync) before any answer of the batch is sent, and one JSON access-log line. The e-mail is
// composed by Formsign's own `composeMessage`: a pure function (no clock, no I/O, no state), so the
// floor composes the very same subject, text and HTML rather than a look-alike of another size.
//
// What Formsign's inline worker does per message is done too, off every request's path: once a batch
// is answered its jobs are run in the next group commit (job done, message and recipient delivered,
// the event published, as the publisher does when no webhook listens), which waits for no flush of its
// own — Formsign commits a delivery's outcome without waiting for the disk as well.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pino from 'pino';
import { composeMessage } from '../../src/domain/sending/compose-message.js';
import { listOperations, loadOpenApiDocument } from '../../src/http/openapi.js';
import { schemasFor } from '../../src/http/plugins/validation.js';
import { createValidators } from '../../src/http/validation.js';

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
interface FormRow { id: string; status: string; name: string | null; template_id: string | null; fields: string | null; values: string; metadata: string; expires_in_days: number; created_at: string; sent_at: string | null; completed_at: string | null; expires_at: string | null }
interface RecipientState { id: string; name: string | null; email: string | null; phone: string | null; channel: string; signer: number; status: string; delivery_status: string; delivery_error: string | null; sent_at: string; viewed_at: string | null; signed_at: string | null; address_key: string }
interface SendBody { recipients: Array<{ channel: 'email' | 'sms'; email?: string; phone?: string; name: string; signer?: number }> }
interface FieldDef { name: string; [k: string]: unknown }
interface Job { jobId: string; eventId: string | null }

const spec = JSON.parse(fs.readFileSync(process.env['BENCH_SAMEWORK_SPEC']!, 'utf8')) as SameWorkSendSpec;
const sample = JSON.parse(spec.body) as { fields: Array<FieldDef & { value: unknown }>; recipients: Array<{ signing_url: string }> };

const TABLES = ['accounts', 'templates', 'forms', 'recipients', 'messages', 'outbox', 'events'];
const source = new SQLite(spec.dbFile, { readonly: true });
// The tables a send touches, with what their foreign keys check (Formsign runs with foreign_keys on).
const ddl = source.prepare(`select sql from sqlite_master where tbl_name in (${TABLES.map(() => '?').join(', ')}) and sql is not null order by type desc, rowid`).all(...TABLES) as Array<{ sql: string }>;
const accountRow = source.prepare('select * from accounts where id = ?').get(spec.accountId) as Row;
const wanted = new Set([...spec.formIds, spec.sampleFormId]);
const formRows = (source.prepare('select * from forms where account_id = ? and mode = ?').all(spec.accountId, spec.mode) as Row[]).filter((f) => wanted.has(f['id'] as string));
if (formRows.length !== wanted.size) throw new Error(`${formRows.length} of the ${wanted.size} forms are in ${spec.dbFile}`);
const templateIds = new Set(formRows.map((f) => f['template_id']));
// The answer's field definitions are taken from the sample's: that holds only if every form shows its template's.
if (templateIds.size !== 1 || formRows.some((f) => f['fields'] !== null)) throw new Error('the bench forms must all show the fields of one template');
const templateRow = source.prepare('select * from templates where id = ?').get([...templateIds][0]) as Row;
// The rows of Formsign's sample send: their columns (and so their sizes) are the ones written here.
const recipientRow = source.prepare('select * from recipients where form_id = ?').get(spec.sampleFormId) as Row;
const messageRow = source.prepare('select * from messages where form_id = ?').get(spec.sampleFormId) as Row;
const jobRow = source.prepare("select * from outbox where kind = 'message.deliver' limit 1").get() as Row;
const eventRow = source.prepare("select * from events where form_id = ? and type = 'form.sent'").get(spec.sampleFormId) as Row;
source.close();
if (!recipientRow || !messageRow || !jobRow || !eventRow) throw new Error(`the sample send left no recipient, message, job or form.sent event in ${spec.dbFile}`);

// A store of its own (same tables and indexes), as Formsign configures SQLite: WAL, NORMAL, and the
// WAL flushed before answering.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-samework-send-'));
const db = new SQLite(path.join(dir, 'floor.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
for (const d of ddl) db.exec(d.sql);
const insert = (table: string, row: Row) => db.prepare(`insert into ${table} (${Object.keys(row).map((k) => `"${k}"`).join(', ')}) values (${Object.keys(row).map((k) => `@${k}`).join(', ')})`);
db.pragma('foreign_keys = ON');
insert('accounts', accountRow).run(accountRow);
insert('templates', templateRow).run(templateRow);
// Ours started from these forms as drafts, and by now has sent them: they start here as they were seeded.
const insertSeedForm = insert('forms', formRows[0]!);
db.transaction(() => {
  for (const f of formRows) insertSeedForm.run({ ...f, status: 'draft', sent_at: null, expires_at: null, completed_at: null, updated_at: f['created_at'] });
})();
const insertRecipient = insert('recipients', recipientRow);
const insertMessage = insert('messages', messageRow);
const insertJob = insert('outbox', jobRow);
const insertEvent = insert('events', eventRow);
const selectForm = db.prepare('select * from forms where id = ? and account_id = ? and mode = ?');
const selectRecipients = db.prepare('select id, name, email, phone, channel, signer, status, delivery_status, delivery_error, sent_at, viewed_at, signed_at, address_key from recipients where account_id = ? and mode = ? and form_id = ? order by position');
const updateForm = db.prepare('update forms set status = ?, sent_at = ?, expires_at = ?, updated_at = ? where account_id = ? and mode = ? and id = ?');
const claimJob = db.prepare("update outbox set status = 'done', attempts = attempts + 1, locked_until = null, last_error = null, updated_at = ? where id = ? and status = 'pending' returning account_id, mode, payload");
const findMessage = db.prepare('select * from messages where account_id = ? and mode = ? and id = ?');
const messageDelivered = db.prepare("update messages set status = 'delivered', transport = 'dev', provider_message_id = null, error = null, delivered_at = ?, updated_at = ? where account_id = ? and mode = ? and id = ?");
const recipientDelivered = db.prepare("update recipients set delivery_status = 'delivered', delivery_error = null, updated_at = ? where account_id = ? and mode = ? and id = ?");
const eventPublished = db.prepare('update events set published_at = ? where id = ? and published_at is null');
const begin = db.prepare('begin');
const commitTx = db.prepare('commit');
db.prepare('select 1').get();
const walFd = fs.openSync(path.join(dir, 'floor.sqlite-wal'), 'r');
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

const log = pino({ base: { pid: process.pid, hostname: 'bench' } }, pino.destination({ dest: '/dev/null', sync: false }));
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const keyHash = sha256(spec.key);
const LIMIT = 1_000_000_000;
const MAX_RECIPIENTS = 100;
const DAY_MS = 86_400_000;
const SENDABLE = new Set(['draft', 'sent', 'viewed']);
// The HTML standard's valid e-mail address, as Formsign checks it.
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const accountName = (accountRow['name'] as string | null) ?? 'Formsign';
const fieldDefs: FieldDef[] = sample.fields.map(({ value: _value, ...def }) => def);
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

// Group commit: a request's rows go into the transaction open for this turn (so a later request of the
// same batch sees them), which is committed at the end of the turn; then one fdatasync of the WAL (one
// in flight; requests arriving meanwhile write into the next transaction and wait for the next flush),
// then the batch's answers. Its jobs run once it is answered, in the next transaction.
let open = false;
let scheduled = false;
let flushing = false;
let waiters: Array<() => void> = [];
let jobs: Job[] = [];
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
function drain(): void {
  scheduled = false;
  if (flushing || !open) return;
  commitTx.run();
  open = false;
  const batch = waiters;
  const batchJobs = jobs;
  waiters = [];
  jobs = [];
  // Only job outcomes: committed, waited for by nobody.
  if (batch.length === 0) return;
  flushing = true;
  fs.fdatasync(walFd, (err) => {
    if (err) throw err;
    flushing = false;
    for (const done of batch) done();
    runJobs(batchJobs);
    if (open) drain();
  });
}
const committed = () => new Promise<void>((resolve) => waiters.push(resolve));

/** What the inline worker does per message with no SMTP_URL: the dev outbox keeps it, delivered. */
function runJobs(batch: Job[]): void {
  if (batch.length === 0) return;
  write();
  const now = new Date().toISOString();
  for (const j of batch) {
    const job = claimJob.get(now, j.jobId) as { account_id: string; mode: string; payload: string } | undefined;
    if (!job) continue;
    const messageId = (JSON.parse(job.payload) as { message_id: string }).message_id;
    const message = findMessage.get(job.account_id, job.mode, messageId) as { id: string; recipient_id: string; status: string } | undefined;
    if (message && message.status !== 'delivered') {
      messageDelivered.run(now, now, job.account_id, job.mode, message.id);
      recipientDelivered.run(now, job.account_id, job.mode, message.recipient_id);
    }
    if (j.eventId) eventPublished.run(now, j.eventId);
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
const validators = createValidators(doc);
const op = listOperations(doc).find((o) => o.operation.operationId === 'sendForm')!;
const app = Fastify({ logger: false });
app.setValidatorCompiler(({ schema }) => validators.body.compile(schema));
app.addHook('onResponse', (req, reply, done) => {
  log.info({ request_id: req.id, method: req.method, route: req.routeOptions.url, status: reply.statusCode, duration_ms: Math.round(reply.elapsedTime * 100) / 100, bytes: Number(reply.getHeader('content-length')), account_id: spec.accountId, mode: spec.mode }, 'request completed');
  done();
});
const refuse = (status: number, code: string, param?: string) => ({ status, body: { error: { code, ...(param ? { param } : {}) } } });
app.post('/api/v1/forms/:form_id/send', { schema: { body: schemasFor(doc, op.operation).body! } }, async (req, reply) => {
  const auth = req.headers.authorization;
  if (!auth?.startsWith('Bearer ') || sha256(auth.slice(7)) !== keyHash) return reply.code(401).send({ error: { code: 'api_key_invalid' } });
  windowCount++;
  monthly++;
  const limits = () => reply.header('x-ratelimit-limit', String(LIMIT)).header('x-ratelimit-remaining', String(LIMIT - windowCount)).header('x-ratelimit-monthly-remaining', String(LIMIT - monthly));
  const fail = (r: ReturnType<typeof refuse>) => limits().code(r.status).send(r.body);
  const input = req.body as SendBody;
  const incoming: Array<{ name: string; email: string; addressKey: string; signer: number | undefined }> = [];
  const inCall = new Set<string>();
  for (const [i, r] of input.recipients.entries()) {
    const name = r.name.trim();
    if (!name) return fail(refuse(400, 'parameter_invalid', `recipients[${i}].name`));
    // The benchmark sends e-mail only; an SMS would need the phone rules this floor leaves out.
    if (r.channel !== 'email' || r.email === undefined) return fail(refuse(400, 'parameter_invalid', `recipients[${i}].channel`));
    const email = r.email.trim();
    if (!EMAIL.test(email)) return fail(refuse(400, 'parameter_invalid', `recipients[${i}].email`));
    const addressKey = email.toLowerCase();
    if (inCall.has(addressKey)) return fail(refuse(400, 'parameter_invalid', `recipients[${i}]`));
    inCall.add(addressKey);
    incoming.push({ name, email, addressKey, signer: r.signer });
  }
  const now = new Date().toISOString();
  const form = selectForm.get((req.params as { form_id: string }).form_id, spec.accountId, spec.mode) as FormRow | undefined;
  if (!form) return fail(refuse(404, 'resource_not_found'));
  if (!SENDABLE.has(form.status)) return fail(refuse(409, 'form_not_sendable'));
  if (form.expires_at !== null && form.expires_at <= now) return fail(refuse(409, 'form_expired'));
  const existing = selectRecipients.all(spec.accountId, spec.mode, form.id) as RecipientState[];
  const sentTo = new Set(existing.map((r) => `${r.channel}:${r.address_key}`));
  const again = incoming.findIndex((r) => sentTo.has(`email:${r.addressKey}`));
  if (again !== -1) return fail(refuse(409, 'form_already_sent', `recipients[${again}]`));
  if (existing.length + incoming.length > MAX_RECIPIENTS) return fail(refuse(400, 'parameter_invalid', 'recipients'));
  const taken = new Set(existing.map((r) => r.signer));
  for (const [i, r] of incoming.entries()) {
    if (r.signer === undefined) continue;
    if (taken.has(r.signer)) return fail(refuse(400, 'parameter_invalid', `recipients[${i}].signer`));
    taken.add(r.signer);
  }
  let nextSigner = 1;
  const expiresAt = form.expires_at ?? new Date(Date.parse(now) + form.expires_in_days * DAY_MS).toISOString();

  write();
  const added: RecipientState[] = [];
  const batchJobs: Job[] = [];
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
    const message = composeMessage({ channel: 'email', to: r.email, recipientName: r.name, formName: form.name ?? 'a document', accountName, signingUrl: linkBase + token(id), expiresAt });
    const messageId = newId('msg');
    insertMessage.run({
      ...messageRow, id: messageId, account_id: spec.accountId, mode: spec.mode, form_id: form.id, recipient_id: id, channel: 'email', to_address: r.email,
      subject: message.subject ?? null, text: message.text, html: message.html ?? null, transport: null, status: 'queued', provider_message_id: null, error: null,
      created_at: now, updated_at: now, delivered_at: null,
    });
    const jobId = newId('job');
    insertJob.run({
      ...jobRow, id: jobId, account_id: spec.accountId, mode: spec.mode, kind: 'message.deliver', version: 1, payload: JSON.stringify({ message_id: messageId }),
      status: 'pending', attempts: 0, run_at: now, locked_until: null, locked_by: null, last_error: null, created_at: now, updated_at: now,
    });
    added.push(recipient);
    batchJobs.push({ jobId, eventId: null });
  }
  const status = form.status === 'draft' ? 'sent' : form.status;
  const sentAt = form.sent_at ?? now;
  updateForm.run(status, sentAt, expiresAt, now, spec.accountId, spec.mode, form.id);
  const all = [...existing, ...added];
  const values = JSON.parse(form.values) as Record<string, unknown>;
  const metadata = JSON.parse(form.metadata) as Record<string, unknown>;
  const eventId = newId('evt');
  insertEvent.run({
    ...eventRow, id: eventId, account_id: spec.accountId, mode: spec.mode, type: 'form.sent', form_id: form.id, form_created_at: form.created_at, created_at: now, published_at: null,
    form: JSON.stringify({ id: form.id, mode: spec.mode, status, name: form.name, template_id: form.template_id, created_at: form.created_at, sent_at: sentAt, completed_at: form.completed_at, expires_at: expiresAt, values, metadata, recipients: all.map(snapshotRecipient) }),
  });
  batchJobs[batchJobs.length - 1]!.eventId = eventId;
  const body = JSON.stringify({
    object: 'form', id: form.id, mode: spec.mode, status, name: form.name, template_id: form.template_id,
    fields: fieldDefs.map((f) => ({ ...f, value: values[f.name] ?? null })), recipients: all.map(presentRecipient),
    created_at: form.created_at, sent_at: sentAt, completed_at: form.completed_at, expires_at: expiresAt, metadata,
  });
  jobs.push(...batchJobs);
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
}));

// The same request as Formsign's sample send, to the same form: the answer must have the same keys.
const shape = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.length === 0 ? [] : [shape(v[0])];
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, shape((v as Row)[k])]));
  return null;
};
const check = await app.inject({ method: 'POST', url: `/api/v1/forms/${spec.sampleFormId}/send`, headers: { authorization: `Bearer ${spec.key}`, 'content-type': 'application/json' }, payload: spec.sampleRequest });
if (check.statusCode !== 200) throw new Error(`the floor's sample send answered ${check.statusCode}: ${check.body}`);
if (JSON.stringify(shape(JSON.parse(check.body))) !== JSON.stringify(shape(sample))) throw new Error(`the floor answers a send with other keys than Formsign:\n${check.body}\n${spec.body}`);
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as { port: number }).port, bytes: Buffer.byteLength(check.body), formsignBytes: Buffer.byteLength(spec.body) })}\n`);
