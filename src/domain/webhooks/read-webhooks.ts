import { findDelivery, listDeliveries } from '../../db/repositories/webhook-deliveries.js';
import { findWebhook, listWebhooks as listWebhookRows } from '../../db/repositories/webhooks.js';
import type { WebhookRow } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import { resolveCursor, type ListInput, type ListView } from '../pagination.js';
import { presentDelivery, presentWebhook, type WebhookDeliveryView, type WebhookView } from './present-webhook.js';

type ReadDeps = Pick<DomainDeps, 'db'>;

export async function loadWebhook(deps: ReadDeps, p: Partition, id: string): Promise<WebhookRow> {
  const row = await findWebhook(deps.db, p, id);
  if (!row) throw notFound('webhook', id);
  return row;
}

export async function listWebhooks(deps: ReadDeps, p: Partition, input: ListInput): Promise<ListView<WebhookView>> {
  const q = await resolveCursor(input, (id) => findWebhook(deps.db, p, id), 'webhook');
  const page = await listWebhookRows(deps.db, p, q);
  return { object: 'list', data: page.rows.map(presentWebhook), has_more: page.hasMore };
}

export async function getWebhook(deps: ReadDeps, p: Partition, id: string): Promise<WebhookView> {
  return presentWebhook(await loadWebhook(deps, p, id));
}

export async function listWebhookDeliveries(deps: ReadDeps, p: Partition, webhookId: string, input: ListInput): Promise<ListView<WebhookDeliveryView>> {
  await loadWebhook(deps, p, webhookId);
  const q = await resolveCursor(
    input,
    async (id) => {
      const d = await findDelivery(deps.db, p, id);
      return d?.webhook_id === webhookId ? d : undefined;
    },
    'delivery',
  );
  const page = await listDeliveries(deps.db, p, webhookId, q);
  return { object: 'list', data: page.rows.map(presentDelivery), has_more: page.hasMore };
}
