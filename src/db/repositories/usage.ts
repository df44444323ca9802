import type { Db, Trx } from '../handles.js';
import type { Plan } from '../tables.js';

// The monthly quota's counter (0008). Operator-level, like accounts: the quota is per account across
// both modes, so these take the account id itself rather than a partition.

export interface UsageIncrement {
  accountId: string;
  /** 'YYYY-MM' (UTC). */
  month: string;
  calls: number;
}

/**
 * Adds each batch to its month's row, creating it when missing: one multi-row upsert per 200 rows,
 * atomic on both dialects. The increments must name each (account, month) once (PostgreSQL refuses
 * to update one row twice in a statement).
 */
export async function addUsage(trx: Trx, increments: readonly UsageIncrement[], now: string): Promise<void> {
  for (let i = 0; i < increments.length; i += 200) {
    const rows = increments.slice(i, i + 200).map((inc) => ({ account_id: inc.accountId, month: inc.month, calls: inc.calls, updated_at: now }));
    await trx
      .insertInto('account_usage')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['account_id', 'month']).doUpdateSet((eb) => ({
          calls: eb(eb.ref('account_usage.calls'), '+', eb.ref('excluded.calls')),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

export interface AccountLimitsRow {
  id: string;
  plan: Plan;
  monthly_limit: number | null;
  per_minute_limit: number | null;
  /** No monthly quota at all (migration 0045). */
  unmetered: boolean;
  /** Calls recorded for the month asked about (0 when no row yet). */
  calls: number;
}

/** The accounts' plans, overrides and month totals in one query (the quota cache's refresh). */
export async function findAccountLimits(db: Db, accountIds: readonly string[], month: string): Promise<AccountLimitsRow[]> {
  if (accountIds.length === 0) return [];
  const rows = await db
    .selectFrom('accounts')
    .leftJoin('account_usage', (j) => j.onRef('account_usage.account_id', '=', 'accounts.id').on('account_usage.month', '=', month))
    .select(['accounts.id', 'accounts.plan', 'accounts.monthly_limit', 'accounts.per_minute_limit', 'accounts.unmetered', 'account_usage.calls'])
    .where('accounts.id', 'in', accountIds)
    .execute();
  return rows.map((r) => ({ id: r.id, plan: r.plan, monthly_limit: r.monthly_limit, per_minute_limit: r.per_minute_limit, unmetered: Number(r.unmetered ?? 0) === 1, calls: Number(r.calls ?? 0) }));
}

/** The month total of one account (tests and the operator). */
export async function monthUsage(db: Db, accountId: string, month: string): Promise<number> {
  const row = await db.selectFrom('account_usage').select('calls').where('account_id', '=', accountId).where('month', '=', month).executeTakeFirst();
  return Number(row?.calls ?? 0);
}
