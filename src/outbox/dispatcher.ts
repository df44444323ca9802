import os from 'node:os';
import type { Db, ReplayableTransact, Transact, Trx, WriteUnit } from '../db/handles.js';
import { claimJobs, ensureJob, extendLease, markJobDone, markJobDoneAndClaimNext, markJobFailed, nextDueAt, releaseLease, rescheduleJob, type ClaimKinds, type Lease } from '../db/repositories/outbox.js';
import type { OutboxRow } from '../db/tables.js';
import { isoNow, type Clock } from '../lib/clock.js';
import { retryDelayMs } from './backoff.js';
import { SYSTEM_PARTITION, type JobContext, type JobDefinition, type JobHandler, type Outcome, type RetryPolicy } from './job.js';
import { jobDefinition, PDF_JOB_KINDS, SCHEDULED_JOBS, type JobHandlers } from './registry.js';

export interface DispatcherOptions {
  readonly db: Db;
  readonly transact: Transact;
  /**
   * For claims, lease renewals and the outcomes of `replayableOutcome` jobs: may return before the
   * commit is on disk (DatabaseHandle.transactReplayable). Absent: these run through `transact`.
   */
  readonly transactReplayable?: ReplayableTransact;
  readonly dialect: 'sqlite' | 'postgres';
  readonly clock: Clock;
  readonly handlers: JobHandlers;
  /** Jobs run at once by this worker (default 8), besides those whose work is in the PDF pool. */
  readonly concurrency?: number;
  /**
   * Jobs whose work is in the PDF pool (`pdfWork`: the seal) run at once, a budget apart from
   * `concurrency` (default: `concurrency`): a backlog of seals took every slot, and the webhook
   * deliveries and e-mails waited behind it (issue 36: 300 of them at once in the cluster benchmark).
   */
  readonly pdfConcurrency?: number;
  /** How long a claim holds a job before another worker may take it; renewed while it runs (default 60 s). */
  readonly leaseMs?: number;
  /** The backstop poll when no signal comes (default 5 s). */
  readonly pollMs?: number;
  /** How long `stop` waits for running jobs before handing their leases back (default 10 s). */
  readonly stopGraceMs?: number;
  /** Jitter source, injectable for tests (default Math.random). */
  readonly random?: () => number;
  readonly workerId?: string;
  /** Taken at start, released at stop: SQLite's one-process-holds-the-worker lock. */
  readonly lock?: () => { release(): void };
  /** Cross-process wake-ups (PostgreSQL LISTEN); returns the function that stops listening. */
  readonly listen?: (onSignal: () => void) => Promise<() => Promise<void>>;
  readonly log?: (line: string) => void;
  /** A job's attempt failed and that was recorded (`final`: no attempt follows); for metrics. */
  readonly onFailure?: (kind: string, final: boolean) => void;
  /**
   * Moves work from another source into the outbox before each claim (the webhook publisher turns
   * pending events into delivery jobs), so what it enqueues is claimed in the same turn of the loop.
   */
  readonly feed?: () => Promise<unknown>;
  /**
   * Retry policies that replace a job definition's, by job name: tests run a schedule of many
   * attempts in seconds (the seal's fail-closed retries, issue 25). Production leaves it unset.
   */
  readonly retryPolicies?: Readonly<Record<string, RetryPolicy>>;
}

export interface Worker {
  readonly id: string;
  /** Takes the lock, starts listening and draining. Throws (e.g. WorkerLockedError) when it cannot. */
  start(): Promise<void>;
  /** New jobs were committed: look now rather than at the next poll. */
  wake(): void;
  /** Claims and runs what is due now until nothing is (tests drive the worker this way with a fake clock). */
  runDue(): Promise<number>;
  /** Stops claiming; waits (bounded) for running jobs, hands back the leases of those still running. */
  stop(): Promise<void>;
  readonly started: boolean;
}

/** The lease was taken over (it ran out while this worker still ran the job): the outcome is not ours to write. */
class LeaseLostError extends Error {}

/** Raised in place of a handler's result when its attempt ran past the definition's timeout. */
class AttemptAbortedError extends Error {}

/** Raised in place of a handler's result when stop() handed its job back: not a failure of the job. */
class HandedBackError extends Error {}

/** A share of the worker's slots: the jobs of some kinds, at most `size` of them at once. */
interface Budget {
  readonly size: number;
  /** What its claims may take; undefined: any job (when no job is `pdfWork`). */
  readonly kinds: ClaimKinds | undefined;
}

/** While every slot is busy, the feed runs at most this often (see loop). */
const FEED_WHEN_BUSY_MS = 250;

const scheduledId = (def: JobDefinition) => `job_${def.name}`;

/**
 * The job worker. Claims due jobs with a lease (PostgreSQL: FOR UPDATE SKIP LOCKED, so any number of
 * workers share the table), runs each job's handler, and marks it done — or reschedules it with
 * backoff, or, after its last attempt, leaves it `dead` with its error for the operator.
 *
 * Delivery is at least once: a worker that dies between a handler's side effect (the SMTP DATA end)
 * and the commit that marks the job done leaves the job to be claimed again when its lease runs out,
 * and the effect happens a second time. Everything a handler records of its success commits in the
 * same transaction as "done", and only while the lease is still this worker's, so a job marked done
 * never runs again.
 *
 * Other sources of work (the webhook publisher draining `events where published_at is null`) fit the
 * same claim → run → settle loop: they claim with the same lease columns and settle through the same
 * fenced updates; this dispatcher drives the outbox table, the one source that exists today.
 */
export function createDispatcher(o: DispatcherOptions): Worker {
  const concurrency = o.concurrency ?? 8;
  // Two budgets, PDF-pool jobs and the rest; each settling job hands its slot to one of its own budget.
  const other: Budget = { size: concurrency, kinds: PDF_JOB_KINDS.length > 0 ? { except: PDF_JOB_KINDS } : undefined };
  const budgets: readonly Budget[] = PDF_JOB_KINDS.length > 0 ? [{ size: o.pdfConcurrency ?? concurrency, kinds: { only: PDF_JOB_KINDS } }, other] : [other];
  const budgetOf = (kind: string): Budget => (budgets.length > 1 && PDF_JOB_KINDS.includes(kind) ? budgets[0]! : other);
  const leaseMs = o.leaseMs ?? 60_000;
  const pollMs = o.pollMs ?? 5_000;
  const stopGraceMs = o.stopGraceMs ?? 10_000;
  const random = o.random ?? Math.random;
  const log = o.log ?? (() => undefined);
  const id = o.workerId ?? `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const at = (offsetMs = 0) => new Date(o.clock.now().getTime() + offsetMs).toISOString();

  const inflight = new Map<string, { lease: Lease; abort: AbortController; done: Promise<void>; budget: Budget }>();
  const freeIn = (b: Budget): number => {
    let running = 0;
    for (const r of inflight.values()) if (r.budget === b) running++;
    return b.size - running;
  };
  let started = false;
  let stopping = false;
  let loopDone: Promise<void> = Promise.resolve();
  let release: { release(): void } | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let wakePending = false;
  let waiter: (() => void) | undefined;

  const wake = () => {
    wakePending = true;
    waiter?.();
  };

  const waitForSignal = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wakePending) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        waiter = undefined;
        resolve();
      }
      waiter = done;
    }).then(() => {
      wakePending = false;
    });

  async function ensureScheduled(): Promise<void> {
    const now = isoNow(o.clock);
    await o.transact(async (trx) => {
      for (const def of SCHEDULED_JOBS) {
        await ensureJob(trx, { id: scheduledId(def), account_id: SYSTEM_PARTITION.accountId, mode: SYSTEM_PARTITION.mode, kind: def.name, version: def.version, payload: '{}', run_at: now, created_at: now });
      }
    });
  }

  const claimIn = (trx: Trx, limit: number, kinds: ClaimKinds | undefined) =>
    claimJobs(trx, { now: isoNow(o.clock), leaseUntil: at(leaseMs), limit, workerId: id, skipLocked: o.dialect === 'postgres', ...(kinds ? { kinds } : {}) });
  // The worker's own bookkeeping, whose loss to a power failure is repaired by running it again.
  const replayable = <T>(unit: WriteUnit<T>): Promise<T> => (o.transactReplayable ?? o.transact)(unit);
  /** How a job's outcome commits: without waiting for the disk only when running it again is harmless. */
  const transactFor = (def: JobDefinition | undefined) => <T>(unit: WriteUnit<T>): Promise<T> => (def?.replayableOutcome ? replayable(unit) : o.transact(unit));
  // A lost claim leaves the job claimable again once its lease runs out: nothing ran on its strength.
  const claim = (limit: number, kinds: ClaimKinds | undefined): Promise<OutboxRow[]> => replayable((trx) => claimIn(trx, limit, kinds));

  /** Settles a job in one transaction, refused (and rolled back) when the lease is no longer ours. */
  const settle = (def: JobDefinition | undefined, write: Outcome) =>
    transactFor(def)(async (trx) => {
      await write(trx);
    });

  async function fail(row: OutboxRow, def: JobDefinition | undefined, handler: JobHandler<unknown> | undefined, payload: unknown, ctx: JobContext | undefined, error: string, permanent: boolean): Promise<void> {
    const lease: Lease = { id: row.id, attempts: row.attempts };
    const max = def?.retry.maxAttempts ?? 1;
    const dead = permanent || row.attempts >= max;
    const now = isoNow(o.clock);
    const everyMs = def?.everyMs;
    await settle(def, async (trx) => {
      let held: boolean;
      let retryAt: string | null;
      if (everyMs !== undefined && dead) {
        // A scheduled job is not abandoned: its next period starts afresh, the error kept meanwhile.
        retryAt = at(everyMs);
        held = await rescheduleJob(trx, lease, { runAt: retryAt, error, now });
      } else {
        retryAt = dead ? null : at(retryDelayMs(def!.retry, row.attempts, random));
        held = await markJobFailed(trx, lease, { status: dead ? 'dead' : 'failed', runAt: retryAt ?? now, error, now });
      }
      if (!held) throw new LeaseLostError();
      if (handler?.failed && ctx) await handler.failed(trx, payload, ctx, { error, dead: everyMs === undefined && dead, retryAt });
    });
    o.onFailure?.(row.kind, dead && everyMs === undefined);
    log(`job ${row.id} (${row.kind}) attempt ${row.attempts} failed${dead ? ' for good' : ''}: ${error}`);
  }

  /** Runs one attempt; resolves with the job that takes over its slot, when its settling claimed one. */
  async function runJob(row: OutboxRow, abort: AbortController): Promise<OutboxRow | undefined> {
    const found = jobDefinition(row.kind);
    const override = found && o.retryPolicies?.[found.name];
    const def = override ? { ...found, retry: override } : found;
    if (!def) return void await fail(row, undefined, undefined, undefined, undefined, `No job definition is named "${row.kind}" in this worker's registry.`, true);
    if (row.version !== def.version) {
      // A newer worker may know this version (a rolling deploy): a normal retry, not an instant death.
      return void await fail(row, def, undefined, undefined, undefined, `The job was written for version ${row.version} of ${def.name}; this worker runs version ${def.version}.`, false);
    }
    const parsed = def.payload.safeParse(safeJson(row.payload));
    if (!parsed.success) return void await fail(row, def, undefined, undefined, undefined, `The payload does not match ${def.name} v${def.version}: ${parsed.error.message}`, true);
    const handler = o.handlers[def.name as keyof JobHandlers] as JobHandler<unknown>;
    const ctx: JobContext = {
      jobId: row.id,
      partition: { accountId: row.account_id, mode: row.mode },
      attempt: row.attempts,
      maxAttempts: def.retry.maxAttempts,
      startedAt: o.clock.now(),
      signal: abort.signal,
    };
    if (row.attempts > def.retry.maxAttempts) {
      // Reclaimed after its worker died during the last attempt.
      return void await fail(row, def, handler, parsed.data, ctx, `The worker running the last attempt stopped before it ended${row.last_error ? ` (earlier: ${row.last_error})` : ''}.`, true);
    }
    const lease: Lease = { id: row.id, attempts: row.attempts };
    const timeout = setTimeout(() => abort.abort(new AttemptAbortedError(`The attempt ran longer than ${def.timeoutMs} ms.`)), def.timeoutMs);
    const heartbeat = setInterval(() => {
      void replayable((trx) => extendLease(trx, lease, at(leaseMs), isoNow(o.clock)))
        .then((held) => held || abort.abort(new LeaseLostError()))
        .catch(() => undefined);
    }, Math.max(50, leaseMs / 3));
    try {
      const aborted = new Promise<never>((_, reject) => {
        const onAbort = () => reject(abort.signal.reason instanceof Error ? abort.signal.reason : new AttemptAbortedError('The attempt was stopped.'));
        if (abort.signal.aborted) onAbort();
        abort.signal.addEventListener('abort', onAbort, { once: true });
      });
      aborted.catch(() => undefined);
      const outcome = await Promise.race([handler.run(parsed.data, ctx), aborted]);
      const now = isoNow(o.clock);
      // The commit that settles this job also claims the next one for its slot: one commit per job
      // instead of two.
      const { kinds } = budgetOf(row.kind);
      const settling = { now, leaseUntil: at(leaseMs), workerId: id, ...(kinds ? { kinds } : {}) };
      return await transactFor(def)(async (trx) => {
        if (o.dialect === 'postgres' && def.everyMs === undefined && !stopping) {
          // One statement marks this job done and claims the next (a round trip per job fewer); the
          // outcome follows in the same transaction, and a lost lease rolls back the claim with it.
          const settled = await markJobDoneAndClaimNext(trx, lease, settling);
          if (!settled.held) throw new LeaseLostError();
          if (outcome) await outcome(trx);
          return settled.next;
        }
        const held = def.everyMs !== undefined ? await rescheduleJob(trx, lease, { runAt: at(def.everyMs), error: null, now }) : await markJobDone(trx, lease, now);
        if (!held) throw new LeaseLostError();
        if (outcome) await outcome(trx);
        return stopping ? undefined : (await claimIn(trx, 1, kinds))[0];
      });
    } catch (error) {
      if (error instanceof LeaseLostError) {
        log(`job ${row.id} (${row.kind}): lease lost to another worker; its outcome is left to that worker.`);
        return;
      }
      if (error instanceof HandedBackError) return;
      await fail(row, def, handler, parsed.data, ctx, errorText(error), false).catch((e: unknown) => {
        if (!(e instanceof LeaseLostError)) log(`job ${row.id}: could not record its failure: ${errorText(e)}`);
      });
    } finally {
      clearTimeout(timeout);
      clearInterval(heartbeat);
    }
  }

  let launched = 0;
  function launch(row: OutboxRow): Promise<void> {
    const abort = new AbortController();
    launched++;
    const done = runJob(row, abort)
      .catch((e: unknown) => void log(`job ${row.id}: ${errorText(e)}`))
      .then(async (next) => {
        if (next && stopping) {
          // stop() began after this job's settling claimed its successor: the successor is handed back
          // (attempt uncounted) rather than run by a stopped worker. This job stays in `inflight` until
          // then, so a stop() that lists the running jobs meanwhile waits for the hand-back too.
          const back = { id: next.id, attempts: next.attempts };
          await o.transact((trx) => releaseLease(trx, back, isoNow(o.clock))).catch(() => undefined);
          next = undefined;
        }
        inflight.delete(row.id);
        // The slot passes to the job claimed with this one's settling, before anyone sees it free.
        if (next) void launch(next);
        wake();
      });
    inflight.set(row.id, { lease: { id: row.id, attempts: row.attempts }, abort, done, budget: budgetOf(row.kind) });
    return done;
  }

  async function loop(): Promise<void> {
    let lastSchedule = 0;
    let lastFeed = 0;
    let feedSkipped = false;
    while (!stopping) {
      // Some budget claimed as many as it had room for: more may be due.
      let filled = false;
      let free = budgets.map(freeIn);
      try {
        if (Date.now() - lastSchedule > pollMs * 12) {
          await ensureScheduled();
          lastSchedule = Date.now();
        }
        // The feed (the webhook publisher) failing must not stop the claiming of every other job. With
        // no slot free what it enqueues cannot be claimed here yet (each settle claims its successor by
        // run_at), so while busy it runs at most every FEED_WHEN_BUSY_MS instead of at every job's end: a
        // statement per job saved. An event then joins the queue at the first job end (or poll) after
        // that; other workers, woken by the same signal, publish it themselves when they have room.
        feedSkipped = !(freeIn(other) > 0 || Date.now() - lastFeed >= FEED_WHEN_BUSY_MS);
        if (!feedSkipped) {
          lastFeed = Date.now();
          await o.feed?.().catch((error: unknown) => log(`worker ${id}: publishing events failed: ${errorText(error)}`));
        }
        for (const [i, b] of budgets.entries()) {
          if (free[i]! <= 0) continue;
          const rows = await claim(free[i]!, b.kinds);
          if (rows.length === free[i]) filled = true;
          for (const row of rows) void launch(row);
        }
      } catch (error) {
        log(`worker ${id}: claiming failed: ${errorText(error)}`);
        free = [];
        filled = false;
      }
      if (stopping) break;
      if (filled) continue;
      // A skipped feed runs once its interval is up, not a whole poll later.
      let waitMs = feedSkipped ? Math.max(0, Math.min(pollMs, lastFeed + FEED_WHEN_BUSY_MS - Date.now())) : pollMs;
      if (free.some((n) => n > 0)) {
        const next = await nextDueAt(o.db).catch(() => undefined);
        const inMs = next ? Date.parse(next) - o.clock.now().getTime() + 5 : undefined;
        // A job already due while a budget is full may be that budget's: it waits for a slot to free
        // (each job's end wakes the loop), not spun on.
        if (inMs !== undefined && (inMs > 0 || free.every((n) => n > 0))) waitMs = Math.max(0, Math.min(waitMs, inMs));
      }
      await waitForSignal(waitMs);
    }
  }

  return {
    id,
    get started() {
      return started;
    },
    wake,
    async start() {
      if (started) return;
      release = o.lock?.();
      try {
        unlisten = await o.listen?.(wake);
      } catch (error) {
        release?.release();
        throw error;
      }
      started = true;
      stopping = false;
      loopDone = loop();
    },
    async runDue() {
      await ensureScheduled();
      const from = launched;
      for (;;) {
        await o.feed?.();
        for (const b of budgets) {
          const room = freeIn(b);
          if (room > 0) for (const row of await claim(room, b.kinds)) void launch(row);
        }
        if (inflight.size === 0) return launched - from;
        await Promise.all([...inflight.values()].map((r) => r.done));
      }
    },
    async stop() {
      stopping = true;
      wake();
      await loopDone;
      const running = [...inflight.values()];
      const graceful = Promise.all(running.map((r) => r.done));
      let timer: NodeJS.Timeout | undefined;
      const inTime = await Promise.race([graceful.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), stopGraceMs)))]);
      clearTimeout(timer);
      if (!inTime) {
        // Counted first: each handed-back job leaves `inflight` as its abort settles.
        const handedBack = inflight.size;
        for (const r of [...inflight.values()]) {
          r.abort.abort(new HandedBackError('The worker is stopping.'));
          await o.transact((trx) => releaseLease(trx, r.lease, isoNow(o.clock))).catch(() => undefined);
        }
        log(`worker ${id}: handed back ${handedBack} running job(s) on stop.`);
      }
      await unlisten?.();
      unlisten = undefined;
      release?.release();
      release = undefined;
      started = false;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
