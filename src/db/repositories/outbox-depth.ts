import type { Db } from '../handles.js';
import type { JobStatus } from '../tables.js';

/** Statuses still waiting on the worker; `done` rows are history and never scanned for a gauge. */
const OPEN_STATUSES: readonly JobStatus[] = ['pending', 'running', 'failed', 'dead'];

export interface OutboxDepthRow {
  kind: string;
  status: JobStatus;
  count: number;
}

/** Jobs per kind and open status, for /metrics at scrape time (the status index bounds the scan). */
export async function countOpenJobs(db: Db): Promise<OutboxDepthRow[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['kind', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('status', 'in', OPEN_STATUSES)
    .groupBy(['kind', 'status'])
    .execute();
  return rows.map((r) => ({ kind: r.kind, status: r.status, count: Number(r.n) }));
}

export interface OldestDueRow {
  kind: string;
  /** run_at of the kind's oldest job that is due and waiting for a worker (ISO 8601). */
  runAt: string;
}

/**
 * The oldest due, unclaimed job per kind (pending, or failed and waiting for its retry): how far the
 * workers lag. A job scheduled for later (a reminder in two days) is not late, so only `run_at <= now`
 * counts. Served by the partial index of waiting jobs (0011).
 */
export async function oldestDueJobs(db: Db, now: string): Promise<OldestDueRow[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['kind', (eb) => eb.fn.min<string>('run_at').as('run_at')])
    .where('status', 'in', ['pending', 'failed'])
    .where('run_at', '<=', now)
    .groupBy('kind')
    .execute();
  return rows.map((r) => ({ kind: r.kind, runAt: String(r.run_at) }));
}
