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
