import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { WebhookRow, WebhooksTable } from '../tables.js';
import { limitLiteral, olderThan, toPage, type Page, type PageQuery } from './pagination.js';

export async function insertWebhook(trx: Trx, p: Partition, row: Omit<WebhooksTable, 'account_id' | 'mode'>): Promise<void> {
  await trx.insertInto('webhooks').values({ ...row, account_id: p.accountId, mode: p.mode }).execute();
}

const ofPartition = (db: Db, p: Partition) => db.selectFrom('webhooks').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode);


export async function countWebhooks(db: Db, p: Partition): Promise<number> {
  const r = await db.selectFrom('webhooks').select((eb) => eb.fn.countAll<string | number>().as('n')).where('account_id', '=', p.accountId).where('mode', '=', p.mode).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function findWebhook(db: Db, p: Partition, id: string): Promise<WebhookRow | undefined> {
  return ofPartition(db, p).where('id', '=', id).executeTakeFirst();
}

/** Newest first, by (created_at, id). */
export async function listWebhooks(db: Db, p: Partition, q: PageQuery): Promise<Page<WebhookRow>> {
  let query = ofPartition(db, p);
  if (q.after) query = query.where(olderThan(q.after));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limitLiteral(q.limit + 1)).execute();
  return toPage(rows, q.limit);
}

export type WebhookPatch = Partial<Pick<WebhookRow, 'url' | 'events' | 'status' | 'description' | 'secret' | 'previous_secret' | 'previous_secret_until' | 'failing_since' | 'disabled_reason'>> & { updated_at: string };

/** The updated row, or undefined when the partition has no such webhook. */
export async function updateWebhook(trx: Trx, p: Partition, id: string, patch: WebhookPatch): Promise<WebhookRow | undefined> {
  return trx.updateTable('webhooks').set(patch).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).returningAll().executeTakeFirst();
}

/** A failed attempt starts the webhook's run of failures unless one is already running; returns its start. */
export async function noteWebhookFailing(trx: Trx, p: Partition, id: string, at: string): Promise<string | undefined> {
  await trx
    .updateTable('webhooks')
    .set({ failing_since: at })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', id)
    .where('failing_since', 'is', null)
    .execute();
  const row = await trx.selectFrom('webhooks').select('failing_since').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).executeTakeFirst();
  return row?.failing_since ?? undefined;
}

export async function noteWebhookHealthy(trx: Trx, p: Partition, id: string): Promise<void> {
  await trx.updateTable('webhooks').set({ failing_since: null }).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).where('failing_since', 'is not', null).execute();
}

export async function deleteWebhook(trx: Trx, p: Partition, id: string): Promise<boolean> {
  const r = await trx.deleteFrom('webhooks').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/**
 * The enabled webhooks of these accounts, both modes: the publisher's view, which fans events of many
 * partitions out at once and matches each event to the webhooks of its own (account, mode).
 */
export async function enabledWebhooksOf(trx: Trx, accountIds: readonly string[]): Promise<WebhookRow[]> {
  if (accountIds.length === 0) return [];
  return trx.selectFrom('webhooks').selectAll().where('account_id', 'in', accountIds).where('status', '=', 'enabled').execute();
}
