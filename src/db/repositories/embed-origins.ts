import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { EmbedOriginRow } from '../tables.js';

// The origins allowed to frame a partition's signing pages (migration 0018).

export function listEmbedOrigins(db: Db, p: Partition): Promise<EmbedOriginRow[]> {
  return db.selectFrom('embed_origins').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).orderBy('created_at', 'desc').orderBy('origin').execute();
}

/** Adds the origin unless it is there; returns the row as stored either way. */
export async function addEmbedOrigin(trx: Trx, p: Partition, origin: string, now: string): Promise<{ row: EmbedOriginRow; created: boolean }> {
  const inserted = await trx
    .insertInto('embed_origins')
    .values({ account_id: p.accountId, mode: p.mode, origin, created_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'mode', 'origin']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { row: inserted, created: true };
  const row = await trx.selectFrom('embed_origins').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('origin', '=', origin).executeTakeFirstOrThrow();
  return { row, created: false };
}

export async function countEmbedOrigins(trx: Trx, p: Partition): Promise<number> {
  const r = await trx.selectFrom('embed_origins').select((eb) => eb.fn.countAll<number | string>().as('n')).where('account_id', '=', p.accountId).where('mode', '=', p.mode).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Whether a row was removed. */
export async function removeEmbedOrigin(trx: Trx, p: Partition, origin: string): Promise<boolean> {
  const r = await trx.deleteFrom('embed_origins').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('origin', '=', origin).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
