import { deleteActivityBefore } from '../../db/repositories/activity.js';
import type { JobHandler } from '../../outbox/job.js';
import type { PayloadOf } from '../../outbox/registry.js';
import type { DomainDeps } from '../context.js';

/** How long an activity entry is kept (issue 39: one year). */
export const ACTIVITY_RETENTION_DAYS = 365;
const BATCH = 1000;

/** Deletes entries older than a year, in batches (each its own short transaction); how many. */
export async function sweepActivity(deps: Pick<DomainDeps, 'transact' | 'clock'>): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - ACTIVITY_RETENTION_DAYS * 86_400_000).toISOString();
  let total = 0;
  for (;;) {
    const n = await deps.transact((trx) => deleteActivityBefore(trx, before, BATCH));
    total += n;
    if (n < BATCH) return total;
  }
}

export function activitySweepHandler(deps: Pick<DomainDeps, 'transact' | 'clock'>): JobHandler<PayloadOf<'activity.sweep'>> {
  return {
    async run() {
      await sweepActivity(deps);
    },
  };
}
