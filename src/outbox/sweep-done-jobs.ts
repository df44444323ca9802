import { deleteDoneJobsBefore } from '../db/repositories/outbox.js';
import type { Transact } from '../db/handles.js';
import type { Clock } from '../lib/clock.js';
import type { JobHandler } from './job.js';
import type { PayloadOf } from './registry.js';

/** How long a finished job is kept: long enough to answer "was it sent, and when?" for a week. */
export const DONE_JOB_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** Deletes done jobs due before the retention, in batches (short transactions); returns how many. */
export async function sweepDoneJobs(deps: { transact: Transact; clock: Clock }, batchSize = 1000): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - DONE_JOB_RETENTION_MS).toISOString();
  let total = 0;
  for (;;) {
    const n = await deps.transact((trx) => deleteDoneJobsBefore(trx, before, batchSize));
    total += n;
    if (n < batchSize) return total;
  }
}

export function outboxSweepHandler(deps: { transact: Transact; clock: Clock }): JobHandler<PayloadOf<'outbox.sweep'>> {
  return {
    async run() {
      await sweepDoneJobs(deps);
    },
  };
}
