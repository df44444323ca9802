import { deleteDeliveriesBefore } from '../../db/repositories/webhook-deliveries.js';
import type { JobHandler } from '../../outbox/job.js';
import type { PayloadOf } from '../../outbox/registry.js';
import type { DomainDeps } from '../context.js';
import { purgeMessageBodies } from '../sending/purge-message-bodies.js';

/** Delivery records are kept 30 days (the contract), then deleted, so the table stays bounded. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3600 * 1000;

/** Deletes deliveries older than the retention, in batches (short transactions); returns how many. */
export async function sweepOldDeliveries(deps: Pick<DomainDeps, 'transact' | 'clock'>, batchSize = 1000): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - DELIVERY_RETENTION_MS).toISOString();
  let total = 0;
  for (;;) {
    const n = await deps.transact((trx) => deleteDeliveriesBefore(trx, before, batchSize));
    total += n;
    if (n < batchSize) return total;
  }
}

/**
 * The hourly retention sweep: delivery records older than 30 days, and the bodies of messages
 * delivered more than 30 days ago (both hold signing links in full).
 */
export function webhookSweepHandler(deps: Pick<DomainDeps, 'transact' | 'clock'>): JobHandler<PayloadOf<'webhook.sweep'>> {
  return {
    async run() {
      await sweepOldDeliveries(deps);
      await purgeMessageBodies(deps);
    },
  };
}
