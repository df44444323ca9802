import { sql } from 'kysely';
import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { FormRow } from '../tables.js';

/** The statuses a form is finished in (a purge may take it). */
export const FINISHED_STATUSES = ['signed', 'declined', 'voided', 'expired'] as const;

export async function setFormHold(trx: Trx, p: Partition, id: string, hold: { reason: string | null; by: string | null; at: string | null }): Promise<void> {
  await trx.updateTable('forms').set({ hold_reason: hold.reason, hold_by: hold.by, hold_at: hold.at }).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).execute();
}

/** Accounts that keep finished forms for a limited time, with that time in days. */
export async function accountsWithRetention(db: Db): Promise<Array<{ id: string; retention_days: number }>> {
  const rows = await db.selectFrom('accounts').select(['id', 'retention_days']).where('retention_days', 'is not', null).execute();
  return rows.flatMap((r) => (r.retention_days ? [{ id: r.id, retention_days: r.retention_days }] : []));
}

/**
 * The account's finished forms (both modes) that finished before `cutoff` and are not on hold, oldest
 * first. A form finished when it was signed (`completed_at`), voided (`voided_at`) or, declined or
 * expired, last changed (`updated_at`).
 */
export async function formsPastRetention(db: Db, accountId: string, cutoff: string, limit: number): Promise<FormRow[]> {
  const finishedAt = sql<string>`coalesce(completed_at, voided_at, updated_at)`;
  return db
    .selectFrom('forms')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('status', 'in', FINISHED_STATUSES)
    .where('hold_at', 'is', null)
    .where(finishedAt, '<', cutoff)
    .orderBy(finishedAt)
    .limit(limit)
    .execute();
}
