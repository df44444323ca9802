import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { IdempotencyKeyRow } from '../tables.js';

export interface KeyClaim {
  key: string;
  requestHash: string;
  /** The request that takes the key (its request id). */
  owner: string;
  now: string;
  /** An `in_flight` row locked before this was abandoned (its process died): it may be taken over. */
  leaseBefore: string;
  /** A row created before this is past the 24 hours a key is kept, swept or not: it counts as absent. */
  expiredBefore: string;
}

export type ClaimResult = { readonly claimed: true } | { readonly claimed: false; readonly row: IdempotencyKeyRow };

const ofKey = (db: Db, p: Partition, key: string) =>
  db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('key', '=', key);

/**
 * Takes the key for a request, or returns the row that already holds it. An abandoned claim (past its
 * lease, same request) or an expired row is taken over by a conditional update, so two requests racing
 * for it cannot both win.
 */
export async function claimIdempotencyKey(trx: Trx, p: Partition, c: KeyClaim): Promise<ClaimResult> {
  const inserted = await trx
    .insertInto('idempotency_keys')
    .values({
      account_id: p.accountId, mode: p.mode, key: c.key, request_hash: c.requestHash, status: 'in_flight', owner: c.owner, locked_at: c.now,
      response_status: null, response_headers: null, response_body: null, created_at: c.now,
    })
    .onConflict((oc) => oc.columns(['account_id', 'mode', 'key']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return { claimed: true };
  const row = await ofKey(trx, p, c.key).executeTakeFirst();
  if (!row) return claimIdempotencyKey(trx, p, c);
  const expired = row.created_at < c.expiredBefore;
  const abandoned = row.status === 'in_flight' && row.locked_at < c.leaseBefore && row.request_hash === c.requestHash;
  if (!expired && !abandoned) return { claimed: false, row };
  const taken = await trx
    .updateTable('idempotency_keys')
    .set({
      request_hash: c.requestHash, status: 'in_flight', owner: c.owner, locked_at: c.now, response_status: null, response_headers: null, response_body: null,
      ...(expired ? { created_at: c.now } : {}),
    })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('key', '=', c.key)
    .where('owner', '=', row.owner)
    .where('locked_at', '=', row.locked_at)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1 ? { claimed: true } : { claimed: false, row: (await ofKey(trx, p, c.key).executeTakeFirst()) ?? row };
}

export interface StoredAnswerRow {
  status: number;
  headers: string;
  body: string;
}

/** Records the answer of the key's request; false when the request no longer holds the key. */
export async function storeIdempotentAnswer(trx: Trx, p: Partition, key: string, owner: string, answer: StoredAnswerRow): Promise<boolean> {
  const r = await trx
    .updateTable('idempotency_keys')
    .set({ status: 'done', response_status: answer.status, response_headers: answer.headers, response_body: answer.body })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('key', '=', key)
    .where('owner', '=', owner)
    .where('status', '=', 'in_flight')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Gives a key back (its request failed with a 5xx, or never answered): the next request with it runs. */
export async function releaseIdempotencyKey(trx: Trx, p: Partition, key: string, owner: string): Promise<void> {
  await trx
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('key', '=', key)
    .where('owner', '=', owner)
    .where('status', '=', 'in_flight')
    .execute();
}

/** Deletes keys created before `before` (the sweep). The table holds one day of keys, swept hourly. */
export async function deleteIdempotencyKeysBefore(trx: Trx, before: string): Promise<number> {
  const r = await trx.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}
