import type { Db, Trx } from '../handles.js';

// The usage chart's counter (0020): per account and UTC day, calls counted toward the quota and 429s.
// Operator-level like account_usage: the quota is per account across both modes.

export interface DailyIncrement {
  accountId: string;
  /** 'YYYY-MM-DD' (UTC). */
  day: string;
  calls: number;
  limited: number;
}

/** Adds each increment to its day's row (one multi-row upsert per 200 rows); each (account, day) once. */
export async function addDailyUsage(trx: Trx, increments: readonly DailyIncrement[], now: string): Promise<void> {
  for (let i = 0; i < increments.length; i += 200) {
    const rows = increments.slice(i, i + 200).map((inc) => ({ account_id: inc.accountId, day: inc.day, calls: inc.calls, limited: inc.limited, updated_at: now }));
    await trx
      .insertInto('account_usage_daily')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['account_id', 'day']).doUpdateSet((eb) => ({
          calls: eb(eb.ref('account_usage_daily.calls'), '+', eb.ref('excluded.calls')),
          limited: eb(eb.ref('account_usage_daily.limited'), '+', eb.ref('excluded.limited')),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

/** The account's days from `fromDay` on (inclusive), oldest first; days without calls have no row. */
export async function dailyUsageSince(db: Db, accountId: string, fromDay: string): Promise<Array<{ day: string; calls: number; limited: number }>> {
  const rows = await db.selectFrom('account_usage_daily').select(['day', 'calls', 'limited']).where('account_id', '=', accountId).where('day', '>=', fromDay).orderBy('day').execute();
  return rows.map((r) => ({ day: r.day, calls: Number(r.calls), limited: Number(r.limited) }));
}
