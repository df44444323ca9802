import { deleteIdempotencyKeysBefore } from '../../db/repositories/idempotency-keys.js';
import type { JobHandler } from '../../outbox/job.js';
import type { PayloadOf } from '../../outbox/registry.js';
import type { DomainDeps } from '../context.js';
import { IDEMPOTENCY_RETENTION_MS } from './idempotency-slot.js';

/** Deletes the keys past their 24 hours; returns how many. (Until then an expired key counts as absent.) */
export async function sweepIdempotencyKeys(deps: Pick<DomainDeps, 'transact' | 'clock'>): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - IDEMPOTENCY_RETENTION_MS).toISOString();
  return deps.transact((trx) => deleteIdempotencyKeysBefore(trx, before));
}

export function idempotencySweepHandler(deps: Pick<DomainDeps, 'transact' | 'clock'>): JobHandler<PayloadOf<'idempotency.sweep'>> {
  return {
    async run() {
      await sweepIdempotencyKeys(deps);
    },
  };
}
