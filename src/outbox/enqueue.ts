import { insertJob } from '../db/repositories/outbox.js';
import type { Trx } from '../db/transact.js';
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
