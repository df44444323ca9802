import type { Clock } from '../../lib/clock.js';
import { AppError } from '../errors.js';
import { countsTowardQuota, defaultPerWindow, endpointKey, monthOf, nextMonthStart, WINDOW_MS, WINDOW_SECONDS } from './policy.js';
import type { AccountLimits, QuotaCounter } from './quota.js';
import { windowState, type WindowCounts, type WindowStore } from './sliding-window.js';

export type LimitReason = 'rate_limited' | 'monthly_quota_exceeded';

/** The contract's headers for one authenticated request, and the refusal when a limit is reached. */
export interface LimitVerdict {
  readonly headers: Record<string, string>;
  readonly refusal?: AppError;
  readonly reason?: LimitReason;
}

export interface Limits {
  /**
   * Checks and counts one request of `accountId` to `method route` (the route template). Synchronous
   * with the in-process window once the account is known; a promise with Redis or on the first call.
   */
  check(accountId: string, method: string, route: string): LimitVerdict | Promise<LimitVerdict>;
  /** Writes the counted calls now (tests; shutdown does it through close). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface LimitsOptions {
  clock: Clock;
  window: WindowStore;
  quota: QuotaCounter;
}

/**
 * Order of the checks: the monthly quota first (in memory), so a request refused for the quota does
 * not use up the window; then the window, which counts only requests it lets through; a request that
 * passes both is counted toward the quota. The window is only looked at (cost 0) for a refusal's
 * headers, and refused requests are never counted (the contract: 429s are not counted).
 */
export function createLimits(opts: LimitsOptions): Limits {
  const { clock, window, quota } = opts;

  function decide(accountId: string, account: AccountLimits, method: string, route: string): LimitVerdict | Promise<LimitVerdict> {
    const nowMs = clock.now().getTime();
    const endpoint = endpointKey(method, route);
    const month = monthOf(nowMs);
    const counted = countsTowardQuota(endpoint);
    const monthly = account.monthlyLimit;
    const used = quota.used(accountId, month);
    const overQuota = counted && used >= monthly;
    const perWindow = account.perMinuteLimit ?? defaultPerWindow(method, route);
    const key = `${accountId} ${endpoint}`;
    const finish = (c: WindowCounts): LimitVerdict => {
      const w = windowState(c, perWindow, nowMs, WINDOW_MS);
      const monthReset = nextMonthStart(nowMs);
      const passed = !overQuota && c.allowed;
      if (passed && counted) quota.count(accountId, month);
      const monthlyUsed = passed && counted ? used + 1 : used;
      const headers: Record<string, string> = {
        'X-RateLimit-Limit': String(w.limit),
        'X-RateLimit-Remaining': String(w.remaining),
        'X-RateLimit-Reset': String(w.reset),
        'X-RateLimit-Window': String(WINDOW_SECONDS),
        'X-RateLimit-Monthly-Limit': String(monthly),
        'X-RateLimit-Monthly-Remaining': String(Math.max(0, monthly - monthlyUsed)),
        'X-RateLimit-Monthly-Reset': String(monthReset),
      };
      if (overQuota) {
        const wait = Math.max(1, monthReset - Math.floor(nowMs / 1000));
        return {
          headers,
          reason: 'monthly_quota_exceeded',
          refusal: new AppError('monthly_quota_exceeded', `This account has used its ${monthly} API calls for this month. The quota renews at the start of next month (UTC), or the operator can raise it.`, undefined, { 'Retry-After': String(wait) }),
        };
      }
      if (!c.allowed) {
        return {
          headers,
          reason: 'rate_limited',
          refusal: new AppError('rate_limited', `Too many requests to ${endpoint}: at most ${perWindow} per ${WINDOW_SECONDS} seconds. Retry after ${w.retryAfter} second${w.retryAfter === 1 ? '' : 's'}.`, undefined, { 'Retry-After': String(w.retryAfter) }),
        };
      }
      return { headers };
    };
    const counts = window.hit(key, perWindow, overQuota ? 0 : 1, nowMs);
    return counts instanceof Promise ? counts.then(finish) : finish(counts);
  }

  return {
    check(accountId, method, route) {
      const account = quota.limits(accountId);
      return account instanceof Promise ? account.then((a) => decide(accountId, a, method, route)) : decide(accountId, account, method, route);
    },
    flush: () => quota.flush(),
    async close() {
      await quota.stop();
      await window.close();
    },
  };
}
