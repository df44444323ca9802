import { createHash } from 'node:crypto';
import { pdfsig } from '../shared/pdf-tools.js';
import { LIMITED_PER_MINUTE, type Cluster } from './cluster.js';
import type { FaultRun } from './faults.js';
import type { LoadClient } from './load.js';

// The promises the cluster must keep through the faults (issue 27), read from the database directly
// (not through the API or /metrics, so a check does not depend on what it checks), from s3rver's
// bucket, and from what the webhook and SMTP receivers saw.

export interface Check { name: string; ok: boolean; detail: string }

const WORK_KINDS = ['message.deliver', 'form.seal', 'webhook.deliver'];
const SUBSCRIBED = ['form.created', 'form.sent', 'form.viewed', 'form.signed'];

/** Work still to do: jobs of the load's kinds not done or dead, events not yet published. */
async function outstanding(c: Cluster): Promise<{ jobs: number; unpublished: number; pendingDeliveries: number }> {
  const jobs = await c.db.query<{ n: string }>(`select count(*) as n from outbox where kind = any($1) and status in ('pending', 'running', 'failed')`, [WORK_KINDS]);
  const events = await c.db.query<{ n: string }>('select count(*) as n from events where published_at is null');
  const deliveries = await c.db.query<{ n: string }>(`select count(*) as n from webhook_deliveries where status = 'pending'`);
  return { jobs: Number(jobs.rows[0]!.n), unpublished: Number(events.rows[0]!.n), pendingDeliveries: Number(deliveries.rows[0]!.n) };
}

/** Waits (up to `timeoutMs`) for the cluster to finish the work the load gave it; says what was left. */
export async function drain(c: Cluster, timeoutMs: number): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = await outstanding(c).catch(() => undefined);
    if (left && left.jobs === 0 && left.unpublished === 0 && left.pendingDeliveries === 0) return 'all work done';
    if (Date.now() > until) return `left after ${timeoutMs / 1000} s: ${JSON.stringify(left)}`;
    await new Promise((r) => setTimeout(r, 500));
  }
}

const ids = (xs: Iterable<string>) => [...xs];

export async function checkInvariants(c: Cluster, client: LoadClient, faults: FaultRun | undefined): Promise<Check[]> {
  const r = client.record;
  const checks: Check[] = [];
  const add = (name: string, problems: string[], detail: string) => checks.push({ name, ok: problems.length === 0, detail: problems.length === 0 ? detail : `${problems.length} problem(s): ${problems.slice(0, 8).join('; ')}` });
  const { accountId } = c.load.partition;

  // 1. Every 2xx was durable.
  {
    const problems: string[] = [];
    const forms = new Set((await c.db.query<{ id: string }>('select id from forms where id = any($1)', [r.created])).rows.map((x) => x.id));
    for (const id of r.created) if (!forms.has(id)) problems.push(`form ${id} answered 201 but is not stored`);
    const recipients = new Map((await c.db.query<{ id: string; status: string }>('select id, status from recipients where id = any($1)', [ids(r.sent.values())])).rows.map((x) => [x.id, x.status]));
    for (const [form, rid] of r.sent) if (!recipients.has(rid)) problems.push(`recipient ${rid} of ${form} answered 200 but is not stored`);
    const signedForms = ids(r.signed.keys());
    const images = new Set((await c.db.query<{ form_id: string }>('select form_id from signatures where form_id = any($1)', [signedForms])).rows.map((x) => x.form_id));
    for (const form of signedForms) {
      if (recipients.get(r.sent.get(form)!) !== 'signed') problems.push(`form ${form}: signature answered 200 but its recipient is ${recipients.get(r.sent.get(form)!)}`);
      if (!images.has(form)) problems.push(`form ${form}: signature answered 200 but no signature image is stored`);
    }
    add('every 2xx is durable', problems, `${r.created.length} forms, ${r.sent.size} recipients, ${r.signed.size} signatures (with their images) all stored`);
  }

  // 2. Every event reached the receiver, signed; no delivery of one event ran twice at once.
  {
    const events = (await c.db.query<{ id: string; type: string }>('select id, type from events where account_id = $1 and type = any($2)', [accountId, SUBSCRIBED])).rows;
    const problems = events.filter((e) => !c.webhooks.byEvent.has(e.id)).map((e) => `${e.type} ${e.id} never reached the receiver`);
    problems.push(...c.webhooks.invalid.map((x) => `bad signature: ${x}`));
    problems.push(...c.webhooks.concurrent.map((id) => `event ${id} delivered while another delivery of it was in flight`));
    const again = [...c.webhooks.byEvent.values()].filter((n) => n > 1).length;
    add('every event delivered ≥ 1, signature valid, never two deliveries of one event at once', problems, `${events.length} events, ${c.webhooks.arrivals.length} requests, all signatures valid; ${again} delivered more than once, none concurrently`);
  }

  // 3. Every message delivered exactly once to the sink (per Message-ID), or still retrying.
  {
    const problems: string[] = [];
    const received = new Map<string, number>();
    for (const m of c.smtp.received) {
      const id = /<(msg_[^@>]+)@/.exec(m.parsed.messageId ?? '')?.[1] ?? '(none)';
      received.set(id, (received.get(id) ?? 0) + 1);
    }
    const messages = (await c.db.query<{ id: string; status: string; kind: string }>('select id, status, kind from messages where account_id = $1', [accountId])).rows;
    const jobs = new Map((await c.db.query<{ payload: string; status: string; attempts: number }>(`select payload, status, attempts from outbox where kind = 'message.deliver'`)).rows.map((j) => [(JSON.parse(j.payload) as { message_id: string }).message_id, j]));
    let retrying = 0;
    let duplicates = 0;
    for (const m of messages) {
      const n = received.get(m.id) ?? 0;
      const job = jobs.get(m.id);
      if (m.status === 'delivered') {
        if (n === 0) problems.push(`${m.kind} ${m.id} is marked delivered but never reached the sink`);
        // A second copy is the documented at-least-once case: the outcome of a sent attempt was lost
        // (the worker died or the database went away before the commit) and the job ran again.
        if (n > 1) {
          duplicates += n - 1;
          if (!job || job.attempts < 2) problems.push(`${m.kind} ${m.id} reached the sink ${n} times in one attempt`);
        }
      } else if (job && ['pending', 'running', 'failed'].includes(job.status)) retrying++;
      else problems.push(`${m.kind} ${m.id} is ${m.status}, its job ${job ? job.status : 'missing'}: lost`);
    }
    const known = new Set(messages.map((m) => m.id));
    for (const id of received.keys()) if (!known.has(id)) problems.push(`the sink got ${id}, which no message row names`);
    add('every message job delivered once per Message-ID, or still retrying', problems, `${messages.length} messages: ${messages.length - retrying} delivered (${duplicates} resent after a lost outcome, same Message-ID), ${retrying} retrying`);
  }

  // 4. Every signed form has its sealed PDF in S3, pdfsig-valid, and the API's file link serves it.
  {
    const problems: string[] = [];
    const forms = (await c.db.query<{ id: string; status: string; sealing_status: string | null }>('select id, status, sealing_status from forms where id = any($1)', [ids(r.signed.keys())])).rows;
    const files = new Map((await c.db.query<{ form_id: string; blob_key: string; sha256: string }>('select form_id, blob_key, sha256 from sealed_files where form_id = any($1)', [ids(r.signed.keys())])).rows.map((f) => [f.form_id, f]));
    let sealed = 0;
    let pending = 0;
    for (const f of forms) {
      if (f.sealing_status === 'pending') {
        pending++;
        continue;
      }
      const file = files.get(f.id);
      if (f.status !== 'signed' || f.sealing_status !== 'sealed' || !file) {
        problems.push(`form ${f.id}: ${f.status}, sealing ${f.sealing_status}, sealed file ${file ? 'stored' : 'missing'}`);
        continue;
      }
      const bytes = await c.s3Object(file.blob_key);
      if (!bytes) {
        problems.push(`form ${f.id}: ${file.blob_key} is not in S3`);
        continue;
      }
      if (createHash('sha256').update(bytes).digest('hex') !== file.sha256) problems.push(`form ${f.id}: the object in S3 is not the sealed file's bytes`);
      const verdict = pdfsig(bytes);
      if (!/Signature is Valid\./.test(verdict)) problems.push(`form ${f.id}: pdfsig says ${verdict.replace(/\s+/g, ' ').slice(0, 200)}`);
      const served = await client.signedPdf(f.id);
      if (!served || !served.equals(bytes)) problems.push(`form ${f.id}: the signed-pdf file link did not serve the sealed bytes`);
      sealed++;
    }
    add('every signed form has a sealed PDF in S3 that pdfsig validates', problems, `${sealed} sealed PDFs in S3, pdfsig "Signature is Valid." for each, each served by its file link; ${pending} still sealing`);
  }

  // 5. The rate limit held across the API processes; failing open while Redis was down, counted.
  if (faults) {
    const p = faults.probe;
    const problems: string[] = [];
    const ok = p.shared.filter((s) => s === 200).length;
    if (ok !== LIMITED_PER_MINUTE || p.shared.some((s) => s !== 200 && s !== 429)) problems.push(`with Redis up, ${p.shared.length} requests over ${c.apis.length} processes: ${p.shared.join(',')} (window ${LIMITED_PER_MINUTE})`);
    if (p.redisDown.some((s) => s !== 200)) problems.push(`with Redis down (window already spent): ${p.redisDown.join(',')}, expected every one let through`);
    if (p.failOpensAfter - p.failOpensBefore < p.redisDown.length) problems.push(`fail-opens counted ${p.failOpensAfter - p.failOpensBefore} < ${p.redisDown.length} requests while Redis was down`);
    add('rate limit shared through Redis; fail-open while Redis was down, counted', problems, `Redis up: ${ok} of ${p.shared.length} let through across ${c.apis.length} processes (window ${LIMITED_PER_MINUTE}), the rest 429; Redis down: ${p.redisDown.length} of ${p.redisDown.length} let through, formsign_rate_limit_redis_fail_open_total +${p.failOpensAfter - p.failOpensBefore}`);
  }

  // 6. No job stays leased by a dead worker past its lease.
  {
    const now = new Date().toISOString();
    const running = (await c.db.query<{ id: string; kind: string; locked_by: string | null; locked_until: string | null }>(`select id, kind, locked_by, locked_until from outbox where status = 'running'`)).rows;
    const dead = new Set(faults?.killedWorkers ?? []);
    const problems = running.filter((j) => (j.locked_by !== null && dead.has(j.locked_by)) || (j.locked_until !== null && j.locked_until < now)).map((j) => `${j.kind} ${j.id} leased by ${j.locked_by} until ${j.locked_until}`);
    const takenOver = (await c.db.query<{ n: string }>(`select count(*) as n from outbox where attempts > 1 and status = 'done'`)).rows[0]!.n;
    add('no job stays leased by a dead worker past its lease', problems, `${running.length} running at the end, none past its lease or held by one of the ${dead.size} killed worker(s); ${takenOver} job(s) done on a later attempt`);
  }

  // 7. The faults happened (a fault that did nothing proves nothing).
  if (faults) {
    const problems: string[] = [];
    const kills = faults.events.filter((e) => e.what.startsWith('SIGKILL')).length;
    if (kills !== 2) problems.push(`${kills} processes killed, expected an API process and a worker`);
    if (faults.terminated === 0) problems.push('pg_terminate_backend found no session to end');
    if (c.pgProxy.refused === 0) problems.push('the PostgreSQL cut reset no connection');
    if (c.s3Proxy.refused === 0) problems.push('the S3 cut reset no connection');
    const restarts = [...c.apis, ...c.workers].flatMap((m) => m.startupExits);
    add('every fault took effect', problems, `${restarts.length} exit(s) while starting, started again${restarts.length ? ` (${restarts.map((x) => x.split(':')[0]).join('; ')})` : ''}; ${kills} SIGKILLs, ${faults.terminated} sessions terminated, ${c.pgProxy.refused} PostgreSQL and ${c.s3Proxy.refused} S3 connections reset by the cuts`);
  }

  // 8. No answer outside the contract, and no process died on its own.
  {
    const members = [...c.apis, ...c.workers];
    const problems = [...r.bad, ...members.flatMap((m) => m.crashes), ...members.filter((m) => !m.ready()).map((m) => `${m.role} ${m.index} is not running at the end`)];
    const statuses = [...r.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s === 0 ? 'no answer' : s}: ${n}`).join(', ');
    add('no 500 and no process exit besides the SIGKILLs', problems, `answers ${statuses}; ${r.abandoned} form(s) abandoned mid-life by the client`);
  }
  return checks;
}

export function formatChecks(checks: Check[]): string {
  return checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.name}\n       ${c.detail}`).join('\n');
}
