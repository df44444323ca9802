import { cancelPendingDeliveries } from '../../db/repositories/webhook-deliveries.js';
import { updateWebhook as updateWebhookRow, type WebhookPatch } from '../../db/repositories/webhooks.js';
import type { components } from '../../generated/api.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import { presentWebhook, type WebhookView } from './present-webhook.js';
import { checkWebhookUrl } from './url-rules.js';

type UpdateWebhookInput = components['schemas']['UpdateWebhookRequest'];

/**
 * Changes the given fields. Disabling abandons the pending deliveries (a disabled webhook is called no
 * more); enabling starts afresh (the run of failures that may have disabled it is forgotten).
 */
export async function updateWebhook(deps: Pick<DomainDeps, 'transact' | 'clock' | 'webhooks'>, p: Partition, id: string, input: UpdateWebhookInput): Promise<WebhookView> {
  const now = isoNow(deps.clock);
  const patch: WebhookPatch = { updated_at: now };
  if (input.url !== undefined) patch.url = await checkWebhookUrl(input.url, deps.webhooks);
  if (input.events !== undefined) patch.events = JSON.stringify(input.events);
  if (input.description !== undefined) patch.description = input.description;
  if (input.status !== undefined) {
    patch.status = input.status;
    patch.disabled_reason = null;
    if (input.status === 'enabled') patch.failing_since = null;
  }
  const row = await deps.transact(async (trx) => {
    const updated = await updateWebhookRow(trx, p, id, patch);
    if (updated?.status === 'disabled') await cancelPendingDeliveries(trx, p, id, now);
    return updated;
  });
  if (!row) throw notFound('webhook', id);
  return presentWebhook(row);
}
