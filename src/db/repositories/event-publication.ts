import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import { idAmong } from '../id-among.js';
import type { EventRow } from '../tables.js';
import { limitLiteral } from './pagination.js';

// The events table is the webhook outbox: an event is written unpublished in the transaction of its
// state change, and the publisher claims pending ones (the partial index events_unpublished_idx), fans
// them out and marks them published in one transaction. The claim reads across partitions by design:
// it is the worker's view, never an API client's.

/** The whole event: the publisher renders each delivery's body from its snapshot. */
export type PendingEvent = EventRow;

/**
 * Up to `limit` unpublished events, oldest first, locked until the caller's transaction ends.
 * PostgreSQL: FOR UPDATE SKIP LOCKED, so concurrent publishers take disjoint events without waiting;
 * SQLite has one writer at a time, which serialises publishers anyway.
 */
export async function claimPendingEvents(trx: Trx, r: { limit: number; skipLocked: boolean }): Promise<PendingEvent[]> {
  let q = trx
    .selectFrom('events')
    .selectAll()
    .where('published_at', 'is', null)
    .orderBy('created_at')
    .limit(limitLiteral(r.limit));
  if (r.skipLocked) q = q.forUpdate().skipLocked();
  return q.execute();
}

/** Whether any event waits for publication: one read of the partial index, no write transaction. */
export async function hasPendingEvents(db: Db): Promise<boolean> {
  const row = await db.selectFrom('events').select('id').where('published_at', 'is', null).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function markEventsPublished(trx: Trx, ids: readonly string[], now: string): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('events').set({ published_at: now }).where(idAmong(trx, 'id', ids)).where('published_at', 'is', null).execute();
}

/** One event of the partition by id (events.id is unique since 0003). */
export async function findEventById(db: Db, p: Partition, id: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('id', '=', id).where('account_id', '=', p.accountId).where('mode', '=', p.mode).executeTakeFirst();
}
