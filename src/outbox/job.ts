import type { z } from 'zod';
import type { Trx } from '../db/handles.js';
import type { Partition } from '../lib/partition.js';

/** How a job is retried: exponential backoff from `baseMs`, capped at `maxMs`, with jitter. */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseMs: number;
  readonly maxMs: number;
}

/**
 * A kind of job: its name (the `outbox.kind` column), the version of its payload's shape (a worker
 * refuses a row written for another version instead of misreading it), the payload schema, how it
 * is retried, and how long one attempt may take.
 */
export interface JobDefinition<N extends string = string, P = unknown> {
  readonly name: N;
  readonly version: number;
  readonly payload: z.ZodType<P>;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  /**
   * Scheduled jobs exist once (a row with a fixed id) and run again this long after each run; the
   * dispatcher creates the row when it is missing. Their partition is SYSTEM_PARTITION.
   */
  readonly everyMs?: number;
  /**
   * The outcome's commit may be lost to a power failure without harm: the lease runs out and the
   * attempt runs again, repeating its effect (an HTTP call, an e-mail), which at-least-once delivery
   * allows. Such outcomes commit without waiting for the disk (a `ReplayableTransact`).
   * Leave unset when anyone may act on the outcome (a sealed document, an expired form).
   */
  readonly replayableOutcome?: true;
  /**
   * The job's work is in the PDF pool (the seal): it runs within the dispatcher's `pdfConcurrency`,
   * apart from the other jobs' `concurrency`, so a backlog of seals never holds up the webhook
   * deliveries and e-mails (nor a backlog of those the seals).
   */
  readonly pdfWork?: true;
}

/** The partition of jobs that belong to no account (scheduled sweeps). No account has this id. */
export const SYSTEM_PARTITION: Partition = { accountId: 'acct_system', mode: 'live' };

export function defineJob<const N extends string, P>(def: JobDefinition<N, P>): JobDefinition<N, P> {
  return Object.freeze(def);
}

export interface JobContext {
  readonly jobId: string;
  readonly partition: Partition;
  /** 1-based. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** The injected clock's time when the attempt started. */
  readonly startedAt: Date;
  /** Aborted when the attempt runs past the definition's timeout or the worker is told to stop now. */
  readonly signal: AbortSignal;
}

/** What became of a failed attempt, for a handler that records it beside the reschedule. */
export interface JobFailure {
  readonly error: string;
  /** No attempts left: the job is now `dead`. */
  readonly dead: boolean;
  /** When the next attempt is due (null when dead). */
  readonly retryAt: string | null;
}

/**
 * What a successful attempt returns to be recorded with it: writes that commit in the transaction that
 * marks the job done (and claims the next), and only while this worker still holds the lease.
 */
export type Outcome = (trx: Trx) => Promise<void>;

/**
 * The code behind a job definition, bound in the composition root. `run` does the work (I/O allowed)
 * and may return the writes that record its success; they commit together with marking the job done,
 * and only while this worker still holds the lease. `failed` records a failure beside the reschedule.
 */
export interface JobHandler<P> {
  run(payload: P, ctx: JobContext): Promise<Outcome | void>;
  failed?(trx: Trx, payload: P, ctx: JobContext, failure: JobFailure): Promise<void>;
}
