import { findDelivery, insertDeliveries } from '../../db/repositories/webhook-deliveries.js';
import { findWebhook } from '../../db/repositories/webhooks.js';
import type { components } from '../../generated/api.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import { webhookDeliver } from '../../outbox/jobs/webhook-deliver.job.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { commit, type PreparedWrite } from '../prepared-write.js';
import { presentDelivery, presentWebhook, type WebhookDeliveryView } from './present-webhook.js';

type TestEvent = components['schemas']['TestEvent'];

/**
 * A `webhook.test` event for one webhook (`POST /api/v1/webhooks/{id}/test`): a delivery whose body is
 * rendered here, so the attempt sends it as it sends any stored body — same signature, headers,
 * retries and delivery log — and its first job, written in one transaction. No event row is written:
 * the publisher fans events out to every subscribed webhook, and a test goes to this one only.
 */
export async function sendTestEvent(deps: Pick<DomainDeps, 'transact' | 'clock'>, p: Partition, webhookId: string): Promise<WebhookDeliveryView> {
  return commit(deps, prepareSendTestEvent(deps, p, webhookId));
}

/** sendTestEvent as a prepared write: the whole of it runs in the unit, which answers the delivery. */
export async function prepareSendTestEvent(deps: Pick<DomainDeps, 'clock'>, p: Partition, webhookId: string): Promise<PreparedWrite<WebhookDeliveryView>> {
  const now = isoNow(deps.clock);
  return async (trx) => {
    const hook = await findWebhook(trx, p, webhookId);
    if (!hook) throw notFound('webhook', webhookId);
    if (hook.status !== 'enabled') throw new AppError('parameter_invalid', 'This webhook is disabled, so it receives no events; enable it, then send the test event.', 'webhook_id');
    const event: TestEvent = { object: 'event', id: newId('event'), type: 'webhook.test', created_at: now, mode: p.mode, data: { object: presentWebhook(hook) } };
    const id = newId('delivery');
    await insertDeliveries(trx, [{ p, d: { id, webhook_id: hook.id, event_id: event.id, event_type: event.type, created_at: now, body: JSON.stringify(event) } }]);
    await enqueue(trx, p, webhookDeliver, { delivery_id: id, attempt: 1 }, { now });
    return presentDelivery((await findDelivery(trx, p, id))!);
  };
}
