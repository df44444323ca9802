import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { listRecipientsOfForm } from '../../../src/db/repositories/recipients.js';
import { recordFormEvent, type EventType } from '../../../src/domain/forms/record-event.js';
import { formState } from '../../../src/domain/forms/present-form.js';
import type { Partition } from '../../../src/lib/partition.js';
import type { Actor, Harness } from '../../harness.js';
import type { Received } from './receiver.js';

export interface CreatedWebhook {
  id: string;
  signing_secret: string;
  status: string;
}

export async function createWebhook(h: Harness, as: Actor, url: string, events: string[]): Promise<CreatedWebhook> {
  const res = await h.request({ method: 'POST', url: '/api/v1/webhooks', as, json: { url, events } });
  assert.equal(res.status, 201, res.body);
  return res.json<CreatedWebhook>();
}

/** Records an event the way the use cases do (for types whose use case is not built yet). */
export async function recordEvent(h: Harness, p: Partition, formId: string, type: EventType): Promise<string> {
  const form = await h.deps.database.db.selectFrom('forms').selectAll().where('id', '=', formId).executeTakeFirstOrThrow();
  return h.deps.domain.transact(async (trx) => recordFormEvent(trx, p, type, formState(form, await listRecipientsOfForm(trx, p, formId)), new Date().toISOString()));
}

/** An independent check of the contract's signature: HMAC-SHA256(secret as UTF-8, "<t>.<raw body>"). */
export function signaturesOf(r: Received): { t: number; v1: string[] } {
  const header = String(r.headers['service-signature']);
  const m = /^t=(\d+)((?:,v1=[0-9a-f]{64})+)$/.exec(header);
  assert.ok(m, `Service-Signature has the contract's shape: ${header}`);
  return { t: Number(m[1]), v1: m[2]!.split(',v1=').slice(1) };
}

export function expectedSignature(secret: string, t: number, raw: Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.concat([Buffer.from(`${t}.`), raw])).digest('hex');
}

export interface DeliveryView {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  next_attempt_at: string | null;
  attempt_log: Array<{ attempt: number; attempted_at: string; status_code: number | null; duration_ms: number; error: string | null; response_body: string | null }>;
}

export async function deliveriesOf(h: Harness, as: Actor, webhookId: string): Promise<DeliveryView[]> {
  const res = await h.request({ url: `/api/v1/webhooks/${webhookId}/deliveries?limit=100`, as });
  assert.equal(res.status, 200, res.body);
  return res.json<{ data: DeliveryView[] }>().data;
}
