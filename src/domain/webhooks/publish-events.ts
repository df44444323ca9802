import { claimPendingEvents, hasPendingEvents, markEventsPublished } from '../../db/repositories/event-publication.js';
import { findFormsIn } from '../../db/repositories/forms.js';
import { insertDeliveries, type NewDelivery } from '../../db/repositories/webhook-deliveries.js';
import { enabledWebhooksOf } from '../../db/repositories/webhooks.js';
import type { EventRow, WebhookRow } from '../../db/tables.js';
import type { Trx } from '../../db/handles.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import { enqueueMany } from '../../outbox/enqueue.js';
import { webhookDeliver } from '../../outbox/jobs/webhook-deliver.job.js';
import type { DomainDeps } from '../context.js';
import { eventJson } from '../forms/present-form.js';
import { formFields } from '../forms/read-forms.js';
import type { FieldSet } from '../templates/field-set.js';

// Replayable: a publication lost to a power failure is published again (new deliveries of the same
// event ids, which at-least-once delivery allows), so it need not wait for the disk.
type PublishDeps = Pick<DomainDeps, 'transactReplayable' | 'clock' | 'templateCache' | 'links'>;

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
 * the outbox. A webhook registered after an event happened does not receive it. Each event's body is
 * rendered here once, by the one form presenter, and stored with every delivery of it, so an attempt
 * reads nothing but its delivery. Returns how many events were claimed (the caller drains until a batch
 * comes back short).
 */
export async function publishPendingEvents(deps: PublishDeps, o: PublishOptions): Promise<number> {
  const limit = o.batchSize ?? 200;
  return deps.transactReplayable(async (trx) => {
    const events = await claimPendingEvents(trx, { limit, skipLocked: o.skipLocked });
    if (events.length === 0) return 0;
    const now = isoNow(deps.clock);
    const hooks = await enabledWebhooksOf(trx, [...new Set(events.map((e) => e.account_id))]);
    const byPartition = new Map<string, WebhookRow[]>();
    for (const h of hooks) {
      const key = `${h.account_id}/${h.mode}`;
      byPartition.set(key, [...(byPartition.get(key) ?? []), h]);
    }
    const targeted = events.flatMap((e) => {
      const targets = (byPartition.get(`${e.account_id}/${e.mode}`) ?? []).filter((h) => h.created_at <= e.created_at && (JSON.parse(h.events) as string[]).includes(e.type));
      return targets.length > 0 ? [{ e, targets }] : [];
    });
    const fieldsOf = await formFieldsOf(trx, deps, targeted.map(({ e }) => e));
    const deliveries: Array<{ p: Partition; d: NewDelivery & { body: string | null } }> = [];
    for (const { e, targets } of targeted) {
      const p = { accountId: e.account_id, mode: e.mode };
      // An event that cannot be rendered here is rendered at its attempt instead, where a failure is
      // that delivery's alone (and visible in its log), never the whole publisher's.
      const fields = fieldsOf.get(formKey(e));
      let body: string | null = null;
      try {
        if (fields) body = eventJson(e, fields, deps.links).json;
      } catch {
        // Rendered at the attempt.
      }
      for (const h of targets) deliveries.push({ p, d: { id: newId('delivery'), webhook_id: h.id, event_id: e.id, event_type: e.type, created_at: now, body } });
    }
    await insertDeliveries(trx, deliveries);
    await enqueueMany(trx, webhookDeliver, deliveries.map(({ p, d }) => ({ p, payload: { delivery_id: d.id, attempt: 1 } })), { now });
    await markEventsPublished(
      trx,
      events.map((e) => e.id),
      now,
    );
    return events.length;
  });
}

const formKey = (e: EventRow) => `${e.account_id}/${e.mode}/${e.form_id}`;

/**
 * The field sets of the events' forms, with one read per partition for the whole batch (not one per
 * form). A form that is missing or whose fields cannot be made is left out, and its events are rendered
 * at their attempt instead; a read that fails fails the batch, which is published again.
 */
async function formFieldsOf(trx: Trx, deps: PublishDeps, events: readonly EventRow[]): Promise<Map<string, FieldSet>> {
  const idsOf = new Map<string, { p: Partition; ids: Set<string> }>();
  for (const e of events) {
    const key = `${e.account_id}/${e.mode}`;
    let entry = idsOf.get(key);
    if (!entry) idsOf.set(key, (entry = { p: { accountId: e.account_id, mode: e.mode }, ids: new Set() }));
    entry.ids.add(e.form_id);
  }
  const fields = new Map<string, FieldSet>();
  for (const { p, ids } of idsOf.values()) {
    for (const form of await findFormsIn(trx, p, [...ids])) {
      try {
        fields.set(`${p.accountId}/${p.mode}/${form.id}`, await formFields({ db: trx, templateCache: deps.templateCache }, p, form));
      } catch {
        // Rendered at the attempt (see above).
      }
    }
  }
  return fields;
}

/**
 * Publishes until no event is pending; returns how many were published. The worker calls this before
 * every claim, so the usual answer (nothing pending) costs one indexed read, not a write transaction.
 */
export async function publishAllPending(deps: PublishDeps & Pick<DomainDeps, 'db'>, o: PublishOptions): Promise<number> {
  if (!(await hasPendingEvents(deps.db))) return 0;
  const limit = o.batchSize ?? 200;
  let total = 0;
  for (;;) {
    const n = await publishPendingEvents(deps, { ...o, batchSize: limit });
    total += n;
    if (n < limit) return total;
  }
}
