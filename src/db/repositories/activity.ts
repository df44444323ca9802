import type { ActivityKind } from '../../lib/activity-kinds.js';
import type { Db, Trx } from '../handles.js';
import type { AccountActivityTable, ActivityRow } from '../tables.js';

// An account's activity log: written inside the transaction of the change it records, read newest
// first by account, deleted by age.

export async function insertActivity(trx: Trx, row: AccountActivityTable): Promise<void> {
  await trx.insertInto('account_activity').values(row).execute();
}

export interface ActivityFilter {
  kind?: ActivityKind | undefined;
  actorId?: string | undefined;
  /** Inclusive lower bound, RFC 3339. */
  since?: string | undefined;
  /** Exclusive upper bound, RFC 3339. */
  until?: string | undefined;
  /** The entry to continue after (newest first). */
  startingAfter?: { created_at: string; id: string } | undefined;
}

export async function listActivityRows(db: Db, accountId: string, filter: ActivityFilter, limit: number): Promise<ActivityRow[]> {
  let q = db.selectFrom('account_activity').selectAll().where('account_id', '=', accountId);
  if (filter.kind) q = q.where('kind', '=', filter.kind);
  if (filter.actorId) q = q.where('actor_id', '=', filter.actorId);
  if (filter.since) q = q.where('created_at', '>=', filter.since);
  if (filter.until) q = q.where('created_at', '<', filter.until);
  const after = filter.startingAfter;
  if (after) q = q.where((eb) => eb.or([eb('created_at', '<', after.created_at), eb.and([eb('created_at', '=', after.created_at), eb('id', '<', after.id)])]));
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function findActivityRow(db: Db, accountId: string, id: string): Promise<ActivityRow | undefined> {
  return db.selectFrom('account_activity').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

/** Deletes up to `batch` entries older than `before` (across accounts: the sweep's own bound); how many. */
export async function deleteActivityBefore(trx: Trx, before: string, batch: number): Promise<number> {
  const ids = trx.selectFrom('account_activity').select('id').where('created_at', '<', before).limit(batch);
  const r = await trx.deleteFrom('account_activity').where('id', 'in', ids).executeTakeFirst();
  return Number(r.numDeletedRows);
}
