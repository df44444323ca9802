import type { Db } from '../db/database.js';
import { preparedInsert } from '../db/prepared-insert.js';
import { newOrderedId } from '../lib/ids.js';
import type { Partition } from '../lib/partition.js';

// `attempts` takes its default (0).
const insertJob = preparedInsert('outbox', ['id', 'account_id', 'mode', 'kind', 'payload', 'status', 'run_at', 'locked_until', 'last_error', 'created_at']);

/**
 * Writes a job in the caller's transaction: the state change and the work it causes commit together,
 * so a crash can delay a webhook or an e-mail but never lose it. The worker (a later issue) drains it.
 */
export async function enqueue(trx: Db, p: Partition, job: { kind: string; payload: unknown; runAt: string }): Promise<string> {
  const id = newOrderedId('job');
  await insertJob(trx, {
    id,
    account_id: p.accountId,
    mode: p.mode,
    kind: job.kind,
    payload: JSON.stringify(job.payload),
    status: 'pending',
    run_at: job.runAt,
    locked_until: null,
    last_error: null,
    created_at: job.runAt,
  });
  return id;
}
