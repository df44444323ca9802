import { insertJob, insertJobs } from '../db/repositories/outbox.js';
import type { Trx } from '../db/handles.js';
import { newOrderedId } from '../lib/ids.js';
import type { Partition } from '../lib/partition.js';
import type { JobDefinition } from './job.js';
import { noteEnqueued } from './wakeup.js';

/**
 * Writes a job in the caller's transaction: the state change and the work it causes commit together,
 * so a crash can delay a webhook or an e-mail but never lose it. The payload is checked against the
 * definition's schema here, where a mistake is the caller's and can still roll its change back.
 * `runAt` (default: now) is when the job becomes due; `created_at` is always now.
 */
export async function enqueue<N extends string, P>(
  trx: Trx,
  p: Partition,
  def: JobDefinition<N, P>,
  payload: P,
  when: { now: string; runAt?: string | undefined },
): Promise<string> {
  const checked = def.payload.parse(payload);
  const id = newOrderedId('job');
  await insertJob(trx, {
    id,
    account_id: p.accountId,
    mode: p.mode,
    kind: def.name,
    version: def.version,
    payload: JSON.stringify(checked),
    run_at: when.runAt ?? when.now,
    created_at: when.now,
  });
  await noteEnqueued(trx);
  return id;
}

/** `enqueue` for many jobs of one definition (a fan-out), written in as few statements as possible. */
export async function enqueueMany<N extends string, P>(
  trx: Trx,
  def: JobDefinition<N, P>,
  jobs: ReadonlyArray<{ p: Partition; payload: P }>,
  when: { now: string },
): Promise<string[]> {
  if (jobs.length === 0) return [];
  const rows = jobs.map(({ p, payload }) => ({
    id: newOrderedId('job'),
    account_id: p.accountId,
    mode: p.mode,
    kind: def.name,
    version: def.version,
    payload: JSON.stringify(def.payload.parse(payload)),
    run_at: when.now,
    created_at: when.now,
  }));
  await insertJobs(trx, rows);
  await noteEnqueued(trx);
  return rows.map((r) => r.id);
}
