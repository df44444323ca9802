import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { WebhookDeliveryRow, WebhookDeliveryStatus, WebhookRow } from '../tables.js';
import { limitLiteral, olderThan, toPage, type Page, type PageQuery } from './pagination.js';

// Deliveries are written by the publisher and the delivery job (system paths that still name the
// partition of the event they carry) and read by the API in the key's partition.

export interface NewDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  created_at: string;
}

export async function insertDelivery(trx: Trx, p: Partition, d: NewDelivery): Promise<void> {
  await trx.insertInto('webhook_deliveries').values(deliveryRow(p, d)).execute();
}

const deliveryRow = (p: Partition, d: NewDelivery & { body?: string | null }) => ({
  ...d, account_id: p.accountId, mode: p.mode, body: d.body ?? null, status: 'pending' as const, last_status_code: null, next_attempt_at: d.created_at, updated_at: d.created_at,
});

/** Rows per multi-row insert: far below SQLite's 32,766 bound variables at 12 columns a row. */
const INSERT_CHUNK = 500;
/** Body bytes per multi-row insert: a form with thousands of fields renders a body of a megabyte. */
const INSERT_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Many deliveries in as few statements as the chunk allows (the publisher's fan-out), each with the
 * body it will send when it is already rendered.
 */
export async function insertDeliveries(trx: Trx, rows: ReadonlyArray<{ p: Partition; d: NewDelivery & { body: string | null } }>): Promise<void> {
  let chunk: ReturnType<typeof deliveryRow>[] = [];
  let bytes = 0;
  const write = async () => {
    if (chunk.length > 0) await trx.insertInto('webhook_deliveries').values(chunk).execute();
    chunk = [];
    bytes = 0;
  };
  for (const r of rows) {
    const size = r.d.body?.length ?? 0;
    if (chunk.length >= INSERT_CHUNK || (chunk.length > 0 && bytes + size > INSERT_CHUNK_BYTES)) await write();
    chunk.push(deliveryRow(r.p, r.d));
    bytes += size;
  }
  await write();
}

export async function findDelivery(db: Db, p: Partition, id: string): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).executeTakeFirst();
}

export type AttemptTarget = Pick<WebhookRow, 'id' | 'url' | 'status' | 'secret' | 'previous_secret' | 'previous_secret_until' | 'failing_since'>;

/** A delivery with the webhook it goes to (undefined when that was deleted), in one read: the attempt's inputs. */
export async function findDeliveryToAttempt(db: Db, p: Partition, id: string): Promise<{ delivery: WebhookDeliveryRow; webhook: AttemptTarget | undefined } | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('webhooks as w', (j) => j.onRef('w.id', '=', 'd.webhook_id').onRef('w.account_id', '=', 'd.account_id').onRef('w.mode', '=', 'd.mode'))
    .selectAll('d')
    .select(['w.id as w_id', 'w.url as w_url', 'w.status as w_status', 'w.secret as w_secret', 'w.previous_secret as w_previous_secret', 'w.previous_secret_until as w_previous_secret_until', 'w.failing_since as w_failing_since'])
    .where('d.account_id', '=', p.accountId)
    .where('d.mode', '=', p.mode)
    .where('d.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { w_id, w_url, w_status, w_secret, w_previous_secret, w_previous_secret_until, w_failing_since, ...delivery } = row;
  const webhook = w_id && w_url && w_status && w_secret ? { id: w_id, url: w_url, status: w_status, secret: w_secret, previous_secret: w_previous_secret, previous_secret_until: w_previous_secret_until, failing_since: w_failing_since } : undefined;
  return { delivery, webhook };
}

/** A webhook's deliveries, newest first. */
export async function listDeliveries(db: Db, p: Partition, webhookId: string, q: PageQuery): Promise<Page<WebhookDeliveryRow>> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('webhook_id', '=', webhookId);
  if (q.after) query = query.where(olderThan(q.after));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limitLiteral(q.limit + 1)).execute();
  return toPage(rows, q.limit);
}

export interface AttemptOutcome {
  status: WebhookDeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  next_attempt_at: string | null;
  body: string;
  attempt_log: string;
  updated_at: string;
}

/**
 * Records attempt `outcome.attempts`, fenced: only while the delivery is still pending with the
 * attempt before it recorded, so a stale or repeated job cannot record an attempt twice. True when
 * this call recorded it.
 */
export async function recordAttempt(trx: Trx, p: Partition, id: string, outcome: AttemptOutcome): Promise<boolean> {
  const r = await trx
    .updateTable('webhook_deliveries')
    .set({ status: outcome.status, attempts: outcome.attempts, last_status_code: outcome.last_status_code, next_attempt_at: outcome.next_attempt_at, body: outcome.body, attempt_log: outcome.attempt_log, updated_at: outcome.updated_at })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('attempts', '=', outcome.attempts - 1)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The webhook was disabled or deleted: what was still to be attempted is abandoned. */
export async function cancelPendingDeliveries(trx: Trx, p: Partition, webhookId: string, now: string): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, updated_at: now })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .execute();
}

/** A retry asked through the API: pending again, due now. */
export async function reopenDelivery(trx: Trx, p: Partition, id: string, now: string): Promise<WebhookDeliveryRow | undefined> {
  return trx
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now, updated_at: now })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Retention (all partitions: the sweep is the operator's): deletes up to `limit` deliveries created
 * before `before`, oldest first; returns how many.
 */
export async function deleteDeliveriesBefore(trx: Trx, before: string, limit: number): Promise<number> {
  const old = trx.selectFrom('webhook_deliveries').select('id').where('created_at', '<', before).orderBy('created_at').limit(limitLiteral(limit));
  const r = await trx.deleteFrom('webhook_deliveries').where('id', 'in', old).executeTakeFirst();
  return Number(r.numDeletedRows);
}
