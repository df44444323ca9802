import { findDelivery, reopenDelivery } from '../../db/repositories/webhook-deliveries.js';
import { findWebhook } from '../../db/repositories/webhooks.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import { webhookDeliver } from '../../outbox/jobs/webhook-deliver.job.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import { commit, type PreparedWrite } from '../prepared-write.js';
import { presentDelivery, type WebhookDeliveryView } from './present-webhook.js';

/**
 * Another attempt at once, whatever the delivery's state, with the same event id and body and a fresh
 * signature. A delivery of a disabled webhook is reopened but not attempted: the attempt finds the
 * webhook disabled and abandons it.
 */
export async function retryWebhookDelivery(deps: Pick<DomainDeps, 'transact' | 'clock'>, p: Partition, webhookId: string, deliveryId: string): Promise<WebhookDeliveryView> {
  return commit(deps, prepareRetryWebhookDelivery(deps, p, webhookId, deliveryId));
}

export async function prepareRetryWebhookDelivery(deps: Pick<DomainDeps, 'clock'>, p: Partition, webhookId: string, deliveryId: string): Promise<PreparedWrite<WebhookDeliveryView>> {
  const now = isoNow(deps.clock);
  return async (trx) => {
    if (!(await findWebhook(trx, p, webhookId))) throw notFound('webhook', webhookId);
    const found = await findDelivery(trx, p, deliveryId);
    if (found?.webhook_id !== webhookId) throw notFound('delivery', deliveryId);
    const reopened = (await reopenDelivery(trx, p, deliveryId, now))!;
    await enqueue(trx, p, webhookDeliver, { delivery_id: deliveryId, attempt: reopened.attempts + 1 }, { now });
    return presentDelivery(reopened);
  };
}
