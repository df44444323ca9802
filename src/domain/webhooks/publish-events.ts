import { claimPendingEvents, hasPendingEvents, markEventsPublished } from '../../db/repositories/event-publication.js';
import { insertDelivery } from '../../db/repositories/webhook-deliveries.js';
import { enabledWebhooksOf } from '../../db/repositories/webhooks.js';
import type { WebhookRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { enqueue } from '../../outbox/enqueue.js';
import { webhookDeliver } from '../../outbox/jobs/webhook-deliver.job.js';
import type { DomainDeps } from '../context.js';

export interface PublishOptions {
  /** PostgreSQL: claim with FOR UPDATE SKIP LOCKED so several workers publish disjoint events. */
  readonly skipLocked: boolean;
  readonly batchSize?: number;
}

/**
 * Fans pending events out to webhooks: claims a batch of unpublished events and, for each enabled
 * webhook of the event's own partition subscribed to its type, writes a delivery and its first job —
 * in the one transaction that marks the events published. A crash before the commit leaves the events
 * pending (published again, nothing duplicated); after it, the deliveries exist and their jobs are in
 * the outbox. A webhook registered after an event happened does not receive it. Returns how many
 * events were claimed (the caller drains until a batch comes back short).
 */
export async function publishPendingEvents(deps: Pick<DomainDeps, 'transact' | 'clock'>, o: PublishOptions): Promise<number> {
  const limit = o.batchSize ?? 200;
  return deps.transact(async (trx) => {
    const events = await claimPendingEvents(trx, { limit, skipLocked: o.skipLocked });
    if (events.length === 0) return 0;
    const now = isoNow(deps.clock);
    const hooks = await enabledWebhooksOf(trx, [...new Set(events.map((e) => e.account_id))]);
    const byPartition = new Map<string, WebhookRow[]>();
    for (const h of hooks) {
      const key = `${h.account_id}/${h.mode}`;
      byPartition.set(key, [...(byPartition.get(key) ?? []), h]);
    }
    for (const e of events) {
      for (const h of byPartition.get(`${e.account_id}/${e.mode}`) ?? []) {
        if (h.created_at > e.created_at || !(JSON.parse(h.events) as string[]).includes(e.type)) continue;
        const p = { accountId: e.account_id, mode: e.mode };
        const id = newId('delivery');
        await insertDelivery(trx, p, { id, webhook_id: h.id, event_id: e.id, event_type: e.type, created_at: now });
        await enqueue(trx, p, webhookDeliver, { delivery_id: id, attempt: 1 }, { now });
      }
    }
    await markEventsPublished(
      trx,
      events.map((e) => e.id),
      now,
    );
    return events.length;
  });
}

/**
 * Publishes until no event is pending; returns how many were published. The worker calls this before
 * every claim, so the usual answer (nothing pending) costs one indexed read, not a write transaction.
 */
export async function publishAllPending(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, o: PublishOptions): Promise<number> {
  if (!(await hasPendingEvents(deps.db))) return 0;
  const limit = o.batchSize ?? 200;
  let total = 0;
  for (;;) {
    const n = await publishPendingEvents(deps, { ...o, batchSize: limit });
    total += n;
    if (n < limit) return total;
  }
}
