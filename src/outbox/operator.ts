import type { Db, Transact } from '../db/handles.js';
import { findJob, listJobs, retryJob } from '../db/repositories/outbox.js';
import type { JobStatus, OutboxRow } from '../db/tables.js';
import { isoNow, type Clock } from '../lib/clock.js';
import { noteEnqueued } from './wakeup.js';

export const JOB_STATUSES: readonly JobStatus[] = ['pending', 'running', 'done', 'failed', 'dead'];

export interface JobView {
  object: 'job';
  id: string;
  kind: string;
  version: number;
  status: JobStatus;
  attempts: number;
  account_id: string;
  mode: string;
  payload: unknown;
  run_at: string;
  locked_until: string | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string | null;
}

export function presentJob(r: OutboxRow): JobView {
  let payload: unknown = r.payload;
  try {
    payload = JSON.parse(r.payload) as unknown;
  } catch {
    // Shown as stored.
  }
  return {
    object: 'job', id: r.id, kind: r.kind, version: Number(r.version), status: r.status, attempts: Number(r.attempts), account_id: r.account_id, mode: r.mode,
    payload, run_at: r.run_at, locked_until: r.locked_until, locked_by: r.locked_by, last_error: r.last_error, created_at: r.created_at, updated_at: r.updated_at,
  };
}

export async function operatorJobs(db: Db, q: { status?: JobStatus | undefined; limit: number }): Promise<JobView[]> {
  return (await listJobs(db, q)).map(presentJob);
}

export type RetryOutcome = { ok: true; job: JobView } | { ok: false; reason: 'not_found' | 'not_retryable'; status?: JobStatus };

/** A failed or dead job becomes due now with a fresh set of attempts; running workers are woken (NOTIFY). */
export async function retryJobNow(deps: { db: Db; transact: Transact; clock: Clock }, id: string): Promise<RetryOutcome> {
  const row = await deps.transact(async (trx) => {
    const revived = await retryJob(trx, id, isoNow(deps.clock));
    if (revived) await noteEnqueued(trx);
    return revived;
  });
  if (row) return { ok: true, job: presentJob(row) };
  const existing = await findJob(deps.db, id);
  return existing ? { ok: false, reason: 'not_retryable', status: existing.status } : { ok: false, reason: 'not_found' };
}
