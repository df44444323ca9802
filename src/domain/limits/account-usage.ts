import { dailyUsageSince } from '../../db/repositories/daily-usage.js';
import type { DomainDeps } from '../context.js';
import type { Limits, UsageSnapshot } from './limits.js';

const DAYS = 30;
const DAY_MS = 86_400_000;

export interface AccountUsageView extends Partial<UsageSnapshot> {
  object: 'usage';
  /** The last 30 UTC days, oldest first, every day present (0 when none). */
  days: Array<{ day: string; calls: number; limited: number }>;
  /** False when the server runs without limits (no windows, no quota). */
  limited: boolean;
}

/**
 * The dashboard's usage page (issue 24). Days come from the store, which the quota counter writes
 * about every second, so the chart lags the meter by at most that long.
 */
export async function accountUsage(deps: Pick<DomainDeps, 'db' | 'clock'>, accountId: string, limits: Limits | undefined, endpoints: ReadonlyArray<{ method: string; route: string }>): Promise<AccountUsageView> {
  const now = deps.clock.now().getTime();
  const first = new Date(now - (DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const rows = new Map((await dailyUsageSince(deps.db, accountId, first)).map((r) => [r.day, r]));
  const days = Array.from({ length: DAYS }, (_, i) => {
    const day = new Date(Date.parse(`${first}T00:00:00Z`) + i * DAY_MS).toISOString().slice(0, 10);
    const r = rows.get(day);
    return { day, calls: r?.calls ?? 0, limited: r?.limited ?? 0 };
  });
  if (!limits) return { object: 'usage', days, limited: false };
  return { object: 'usage', days, limited: true, ...(await limits.snapshot(accountId, endpoints)) };
}
