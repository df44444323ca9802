import { cancelPendingDeliveries } from '../../db/repositories/webhook-deliveries.js';
import { deleteWebhook as deleteWebhookRow } from '../../db/repositories/webhooks.js';
import type { components } from '../../generated/api.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';

/** Deletes the webhook and abandons its pending deliveries; their records stay until swept. */
export async function deleteWebhook(deps: Pick<DomainDeps, 'transact' | 'clock'>, p: Partition, id: string): Promise<components['schemas']['DeletedWebhook']> {
  const now = isoNow(deps.clock);
  const deleted = await deps.transact(async (trx) => {
    if (!(await deleteWebhookRow(trx, p, id))) return false;
    await cancelPendingDeliveries(trx, p, id, now);
    return true;
  });
  if (!deleted) throw notFound('webhook', id);
  return { object: 'webhook', id, deleted: true };
}
