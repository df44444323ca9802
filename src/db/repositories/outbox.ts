import { sql } from 'kysely';
import type { Db, Trx } from '../handles.js';
import { preparedInsert } from '../prepared-insert.js';
import { preparedWrite } from '../prepared-write.js';
import { limitLiteral } from './pagination.js';
import type { JobStatus, OutboxRow, OutboxTable } from '../tables.js';

// The job queue. Jobs carry their partition (account_id, mode) like every row, but the worker serves
// every partition at once, so the claim and the operator's listing read across partitions by design:
// they are the worker's and the operator's views, never an API client's.

/** A job as a use case writes it: status pending, no lease, no attempts yet. */
export type NewJob = Pick<OutboxTable, 'id' | 'account_id' | 'mode' | 'kind' | 'payload' | 'run_at' | 'created_at'> & { version: number };

// `attempts` takes its default (0).
const insertJobRow = preparedInsert('outbox', [
  'id', 'account_id', 'mode', 'kind', 'version', 'payload', 'status', 'run_at', 'locked_until', 'locked_by', 'last_error', 'created_at', 'updated_at',
]);

export function insertJob(trx: Trx, job: NewJob): Promise<void> {
  return insertJobRow(trx, { ...job, status: 'pending', locked_until: null, locked_by: null, last_error: null, updated_at: job.created_at });
}

/** Many jobs in as few statements as the chunk allows (500 rows, well inside SQLite's variable bound). */
export async function insertJobs(trx: Trx, jobs: readonly NewJob[]): Promise<void> {
  for (let i = 0; i < jobs.length; i += 500) {
    await trx.insertInto('outbox')
      .values(jobs.slice(i, i + 500).map((job) => ({ ...job, status: 'pending' as const, locked_until: null, locked_by: null, last_error: null, updated_at: job.created_at })))
      .execute();
  }
}

/** A scheduled job's one row; a second worker creating it at the same moment is a no-op. */
export async function ensureJob(trx: Trx, job: NewJob): Promise<void> {
  await trx
    .insertInto('outbox')
    .values({ ...job, status: 'pending', locked_until: null, locked_by: null, last_error: null, updated_at: job.created_at })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export interface ClaimRequest {
  now: string;
  leaseUntil: string;
  limit: number;
  workerId: string;
  /** PostgreSQL: FOR UPDATE SKIP LOCKED, so concurrent workers claim disjoint rows without waiting. */
  skipLocked: boolean;
  /** Only jobs of these kinds, or all but these (the dispatcher's two budgets); absent: any job. */
  kinds?: ClaimKinds;
}

/** Which jobs a claim may take by kind: `only` these, or all `except` these. */
export type ClaimKinds = { readonly only: readonly string[] } | { readonly except: readonly string[] };

/** The kinds as part of a prepared statement's shape: the names go into its text as literals. */
const kindsShape = (kinds: ClaimKinds | undefined): string =>
  !kinds ? 'any' : 'only' in kinds ? `only=${kinds.only.join(',')}` : `except=${kinds.except.join(',')}`;

function kindsOf(shape: string): ClaimKinds | undefined {
  const [how, list = ''] = shape.split('=');
  if (how === 'only') return { only: list.split(',') };
  if (how === 'except') return { except: list.split(',') };
  return undefined;
}

/** `kind in (…)` or `kind not in (…)` with the job names as literals (names of job definitions, not input). */
function kindCondition(kinds: ClaimKinds) {
  const names = 'only' in kinds ? kinds.only : kinds.except;
  return sql<boolean>`kind ${sql.raw('only' in kinds ? 'in' : 'not in')} (${sql.join(names.map((n) => sql.lit(n)))})`;
}

/**
 * Takes up to `limit` due jobs: pending or failed ones whose time has come, and running ones whose
 * lease ran out (their worker died), earliest run_at first. Each claim counts an attempt; the attempt
 * count is also the lease's fencing token, so a worker that lost its lease cannot mark a job another
 * worker now holds.
 *
 * The two kinds are looked up apart, each taking its first `limit` in index order (waiting jobs from
 * outbox_waiting_idx, expired leases from the few running rows of outbox_due_idx), and the earliest
 * `limit` of both are claimed: one condition OR-ing the two made PostgreSQL read and sort every due
 * row, so each claim cost grew with the backlog. The statuses are literals, not parameters, so the
 * partial index is usable whatever the parameters (SQLite and a prepared statement's generic plan).
 * A row an expired-lease lookup locks but does not take is free again at the commit.
 */
function claimUpdate(db: Db, a: Pick<ClaimRequest, 'now' | 'leaseUntil' | 'workerId'>, count: number, skipLocked: boolean, except?: string, kinds?: ClaimKinds) {
  const limit = limitLiteral(count);
  let waiting = db
    .selectFrom('outbox')
    .select(['id', 'run_at'])
    .where(sql<boolean>`status in ('pending', 'failed')`)
    .where('run_at', '<=', a.now)
    .orderBy('run_at')
    .limit(limit);
  let expired = db
    .selectFrom('outbox')
    .select(['id', 'run_at'])
    .where(sql<boolean>`status = 'running'`)
    .where('locked_until', '<=', a.now)
    .orderBy('run_at')
    .limit(limit);
  // A job being settled in the same statement is not taken again (one statement updates a row once).
  if (except !== undefined) expired = expired.where('id', '<>', except);
  if (kinds) {
    waiting = waiting.where(kindCondition(kinds));
    expired = expired.where(kindCondition(kinds));
  }
  if (skipLocked) {
    waiting = waiting.forUpdate().skipLocked();
    expired = expired.forUpdate().skipLocked();
  }
  return db
    .with('waiting', () => waiting)
    .with('expired', () => expired)
    .updateTable('outbox')
    .set({ status: 'running', attempts: sql`attempts + 1`, locked_until: a.leaseUntil, locked_by: a.workerId, updated_at: a.now })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom((sub) => sub.selectFrom('waiting').select(['id', 'run_at']).unionAll(sub.selectFrom('expired').select(['id', 'run_at'])).as('due'))
        .select('due.id')
        .orderBy('due.run_at')
        .limit(limit),
    )
    .returningAll();
}

// One compiled statement per batch size (a worker asks for 1 up to its concurrency) and dialect.
const claimDue = preparedWrite((db, a: Pick<ClaimRequest, 'now' | 'leaseUntil' | 'workerId'>, shape: string) => {
  const [count, locking, kinds = 'any'] = shape.split(':');
  return claimUpdate(db, a, Number(count), locking === 'skip-locked', undefined, kindsOf(kinds));
});

export async function claimJobs(trx: Trx, r: ClaimRequest): Promise<OutboxRow[]> {
  return (await claimDue(trx, r, `${r.limit}:${r.skipLocked ? 'skip-locked' : 'plain'}:${kindsShape(r.kinds)}`)).rows;
}

/** The lease a worker holds: the job and the attempt it claimed. */
export interface Lease {
  id: string;
  attempts: number;
}

const held = (db: Db, l: Lease) => db.updateTable('outbox').where('id', '=', l.id).where('attempts', '=', l.attempts).where('status', '=', 'running');

const doneIfHeld = preparedWrite((db, a: Lease & { now: string }) => held(db, a).set({ status: 'done', locked_until: null, last_error: null, updated_at: a.now }));

/** True when the lease was still this worker's (and the job is now done). */
export async function markJobDone(trx: Trx, l: Lease, now: string): Promise<boolean> {
  const r = await doneIfHeld(trx, { id: l.id, attempts: l.attempts, now });
  return Number(r.numAffectedRows) === 1;
}

/** Marks the held job done and claims one more, in one WITH: the CTEs `done` and `claimed`. */
const doneAndClaimCtes = (db: Db, a: Lease & Pick<ClaimRequest, 'now' | 'leaseUntil' | 'workerId'>, kinds?: ClaimKinds) =>
  db
    .with('done', (d) =>
      d
        .updateTable('outbox')
        .set({ status: 'done', locked_until: null, last_error: null, updated_at: a.now })
        .where('id', '=', a.id)
        .where('attempts', '=', a.attempts)
        .where('status', '=', 'running')
        .returning('id'),
    )
    // Every sub-statement of a WITH runs, read or not: the claim is made only where the lease held, so
    // a lost lease claims nothing even if the caller committed.
    .with('claimed', () => claimUpdate(db, a, 1, true, a.id, kinds).where(LEASE_HELD));

/** True in a sub-statement of doneAndClaimCtes' WITH when the lease held (the job is being marked done). */
const LEASE_HELD = sql<boolean>`exists (select 1 from done)`;

const selectSettled = (q: ReturnType<typeof doneAndClaimCtes>) => q.selectFrom('done').leftJoin('claimed', (j) => j.onTrue()).select('done.id as done_id').selectAll('claimed');

const doneAndClaimNext = preparedWrite((db, a: Lease & Pick<ClaimRequest, 'now' | 'leaseUntil' | 'workerId'>, kinds: string) => selectSettled(doneAndClaimCtes(db, a, kindsOf(kinds))));

type Settled = { held: boolean; next: OutboxRow | undefined };

function settledFrom(row: { done_id: string } | undefined): Settled {
  if (!row) return { held: false, next: undefined };
  const { done_id: _doneId, ...next } = row as { done_id: string; id: string | null };
  return { held: true, next: next.id === null ? undefined : (next as OutboxRow) };
}

/**
 * PostgreSQL: markJobDone and a claim of one more job in one statement (a round trip per job fewer),
 * run in the transaction that writes the job's outcome. `held` is false when the lease was no longer
 * ours; the caller then rolls back, claim included. The claim sees the table as it was before this
 * statement, like claimJobs run before the job's outcome.
 */
export async function markJobDoneAndClaimNext(trx: Trx, l: Lease, r: Omit<ClaimRequest, 'limit' | 'skipLocked'>): Promise<Settled> {
  return settledFrom((await doneAndClaimNext(trx, { id: l.id, attempts: l.attempts, now: r.now, leaseUntil: r.leaseUntil, workerId: r.workerId }, kindsShape(r.kinds))).rows[0]);
}

/** A failed attempt: `failed` with the next attempt at `runAt`, or `dead` with no attempts left. */
export async function markJobFailed(trx: Trx, l: Lease, f: { status: Extract<JobStatus, 'failed' | 'dead'>; runAt: string; error: string; now: string }): Promise<boolean> {
  const r = await held(trx, l).set({ status: f.status, run_at: f.runAt, locked_until: null, last_error: f.error, updated_at: f.now }).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * A scheduled job's run ended: it is due again at `runAt` with a fresh set of attempts (a scheduled
 * job never dies; its last error, if its attempts ran out, stays visible until a run succeeds).
 */
export async function rescheduleJob(trx: Trx, l: Lease, r0: { runAt: string; error: string | null; now: string }): Promise<boolean> {
  const r = await held(trx, l)
    .set({ status: r0.error ? 'failed' : 'pending', attempts: 0, run_at: r0.runAt, locked_until: null, last_error: r0.error, updated_at: r0.now })
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function extendLease(trx: Trx, l: Lease, until: string, now: string): Promise<boolean> {
  const r = await held(trx, l).set({ locked_until: until, updated_at: now }).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A worker stopping before the attempt ended hands the job back at once, the attempt uncounted. */
export async function releaseLease(trx: Trx, l: Lease, now: string): Promise<boolean> {
  const r = await held(trx, l)
    .set({ status: l.attempts > 1 ? 'failed' : 'pending', attempts: l.attempts - 1, run_at: now, locked_until: null, updated_at: now })
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The operator's retry: a failed or dead job is due now with a fresh set of attempts. */
export async function retryJob(trx: Trx, id: string, now: string): Promise<OutboxRow | undefined> {
  return trx
    .updateTable('outbox')
    .set({ status: 'pending', attempts: 0, run_at: now, locked_until: null, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['failed', 'dead'])
    .returningAll()
    .executeTakeFirst();
}

export async function findJob(db: Db, id: string): Promise<OutboxRow | undefined> {
  return db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Newest first. */
export async function listJobs(db: Db, q: { status?: JobStatus | undefined; limit: number }): Promise<OutboxRow[]> {
  let query = db.selectFrom('outbox').selectAll();
  if (q.status) query = query.where('status', '=', q.status);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
}

/** The earliest time a job becomes claimable (a retry's run_at, or a running job's lease end), if any. */
export async function nextDueAt(db: Db): Promise<string | undefined> {
  // Two queries, each a range of the (status, run_at) index; done jobs, however many, are not read.
  const waiting = await db.selectFrom('outbox').select((eb) => eb.fn.min('run_at').as('t')).where('status', 'in', ['pending', 'failed']).executeTakeFirst();
  const leased = await db.selectFrom('outbox').select((eb) => eb.fn.min('locked_until').as('t')).where('status', '=', 'running').executeTakeFirst();
  const times = [waiting?.t, leased?.t].filter((t): t is string => typeof t === 'string');
  return times.sort()[0];
}

/**
 * Deletes up to `limit` done jobs that were due before `before` (a range of the (status, run_at)
 * index); scheduled jobs are never done (each run reschedules its row), so they stay.
 */
export async function deleteDoneJobsBefore(trx: Trx, before: string, limit: number): Promise<number> {
  const old = trx.selectFrom('outbox').select('id').where('status', '=', 'done').where('run_at', '<', before).orderBy('run_at').limit(limitLiteral(limit));
  const r = await trx.deleteFrom('outbox').where('id', 'in', old).executeTakeFirst();
  return Number(r.numDeletedRows);
}
