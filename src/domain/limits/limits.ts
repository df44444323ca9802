import type { Clock } from '../../lib/clock.js';
import { AppError } from '../errors.js';
import { ADDRESS_WINDOW, countsTowardQuota, dayOf, defaultPerWindow, endpointKey, monthSpan, WINDOW_MS, WINDOW_SECONDS, type MonthSpan } from './policy.js';
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
  /**
   * Takes back the quota count of one request already checked, from the month and from the day (a
   * replayed idempotent answer is not counted twice, in the quota nor on the dashboard's daily usage).
   * The window keeps it: a replay still costs the server a request.
   */
  refund(accountId: string, method: string, route: string): void;
  /**
   * Checks and counts one request that reached no account: refused for its key (401, 402), or for a
   * route or method that does not exist (404 route_not_found, 405). Such requests are counted per
   * client address in a window of their own (`ADDRESS_WINDOW`), which guards key guessing; its
   * headers are the window ones only, since no account's month is concerned.
   */
  checkAddress(address: string): LimitVerdict | Promise<LimitVerdict>;
  /** Calls left in the account's month (null: no monthly quota), counting this process's unwritten ones. */
  monthlyLeft(accountId: string): Promise<number | null>;
  /**
   * Counts `calls` calls made on the account's behalf by one request (a bulk send's rows, each a
   * createForm and a sendForm: issue 42), toward the month and the day, as those calls would count.
   */
  charge(accountId: string, calls: number): void;
  /** Writes the counted calls now (tests; shutdown does it through close). */
  flush(): Promise<void>;
  /**
   * Dashboard (issue 24): the month's calls against the quota and each named endpoint's window as it
   * stands, looked at without counting anything.
   */
  snapshot(accountId: string, endpoints: ReadonlyArray<{ method: string; route: string }>): Promise<UsageSnapshot>;
  close(): Promise<void>;
}

export interface UsageSnapshot {
  /** Absent for an account with no monthly quota. */
  readonly monthly?: { readonly limit: number; readonly used: number; readonly reset: number };
  readonly window_seconds: number;
  readonly windows: ReadonlyArray<{ readonly endpoint: string; readonly limit: number; readonly remaining: number; readonly reset: number }>;
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
    const month = monthSpan(nowMs);
    const counted = countsTowardQuota(endpoint);
    const monthly = account.monthlyLimit;
    const used = quota.used(accountId, month.month);
    const q: Decision = { accountId, endpoint, nowMs, month, counted, monthly, used, overQuota: counted && monthly !== null && used >= monthly, perWindow: account.perMinuteLimit ?? defaultPerWindow(method, route) };
    const counts = window.hit(`${accountId} ${endpoint}`, q.perWindow, q.overQuota ? 0 : 1, nowMs);
    return counts instanceof Promise ? counts.then((c) => verdict(quota, q, c)) : verdict(quota, q, counts);
  }

  return {
    checkAddress(address) {
      const nowMs = clock.now().getTime();
      const counts = window.hit(`addr ${address}`, ADDRESS_WINDOW, 1, nowMs);
      return counts instanceof Promise ? counts.then((c) => addressVerdict(c, nowMs)) : addressVerdict(counts, nowMs);
    },
    check(accountId, method, route) {
      const account = quota.limits(accountId);
      return account instanceof Promise ? account.then((a) => decide(accountId, a, method, route)) : decide(accountId, account, method, route);
    },
    refund(accountId, method, route) {
      if (!countsTowardQuota(endpointKey(method, route))) return;
      // The replay was counted moments ago by check(), at this same month and day.
      const nowMs = clock.now().getTime();
      quota.uncount(accountId, monthSpan(nowMs).month, dayOf(nowMs));
    },
    async monthlyLeft(accountId) {
      const account = await quota.limits(accountId);
      if (account.monthlyLimit === null) return null;
      return Math.max(0, account.monthlyLimit - quota.used(accountId, monthSpan(clock.now().getTime()).month));
    },
    charge(accountId, calls) {
      const nowMs = clock.now().getTime();
      quota.count(accountId, monthSpan(nowMs).month, dayOf(nowMs), calls);
    },
    flush: () => quota.flush(),
    async snapshot(accountId, endpoints) {
      const account = await quota.limits(accountId);
      const nowMs = clock.now().getTime();
      const month = monthSpan(nowMs);
      const windows = [];
      for (const { method, route } of endpoints) {
        const endpoint = endpointKey(method, route);
        const limit = account.perMinuteLimit ?? defaultPerWindow(method, route);
        const w = windowState(await window.hit(`${accountId} ${endpoint}`, limit, 0, nowMs), limit, nowMs, WINDOW_MS);
        windows.push({ endpoint, limit, remaining: w.remaining, reset: w.reset });
      }
      const monthly = account.monthlyLimit === null ? {} : { monthly: { limit: account.monthlyLimit, used: quota.used(accountId, month.month), reset: month.resetS } };
      return { ...monthly, window_seconds: WINDOW_SECONDS, windows };
    },
    async close() {
      await quota.stop();
      await window.close();
    },
  };
}

/** What was known before the window answered. */
interface Decision {
  readonly accountId: string;
  readonly endpoint: string;
  readonly nowMs: number;
  readonly month: MonthSpan;
  readonly counted: boolean;
  /** null: the account has no monthly quota (no X-RateLimit-Monthly-* headers). */
  readonly monthly: number | null;
  readonly used: number;
  readonly overQuota: boolean;
  readonly perWindow: number;
}

// A function of its own, not a closure made per request: the hot path builds nothing it can avoid.
function verdict(quota: QuotaCounter, q: Decision, c: WindowCounts): LimitVerdict {
  const w = windowState(c, q.perWindow, q.nowMs, WINDOW_MS);
  const monthReset = q.month.resetS;
  const passed = !q.overQuota && c.allowed;
  if (passed && q.counted) quota.count(q.accountId, q.month.month, dayOf(q.nowMs));
  else if (!passed) quota.countRefused(q.accountId, dayOf(q.nowMs));
  const monthlyUsed = passed && q.counted ? q.used + 1 : q.used;
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(w.limit),
    'X-RateLimit-Remaining': String(w.remaining),
    'X-RateLimit-Reset': String(w.reset),
    'X-RateLimit-Window': WINDOW_HEADER,
  };
  if (q.monthly !== null) {
    headers['X-RateLimit-Monthly-Limit'] = String(q.monthly);
    headers['X-RateLimit-Monthly-Remaining'] = String(Math.max(0, q.monthly - monthlyUsed));
    headers['X-RateLimit-Monthly-Reset'] = String(monthReset);
  }
  if (q.overQuota) {
    const wait = Math.max(1, monthReset - Math.floor(q.nowMs / 1000));
    return {
      headers,
      reason: 'monthly_quota_exceeded',
      refusal: new AppError('monthly_quota_exceeded', `This account has used its ${q.monthly} API calls for this month. The quota renews at the start of next month (UTC), or the operator can raise it.`, undefined, { 'Retry-After': String(wait) }),
    };
  }
  if (!c.allowed) {
    return {
      headers,
      reason: 'rate_limited',
      refusal: new AppError('rate_limited', `Too many requests to ${q.endpoint}: at most ${q.perWindow} per ${WINDOW_SECONDS} seconds. Retry after ${w.retryAfter} second${w.retryAfter === 1 ? '' : 's'}.`, undefined, { 'Retry-After': String(w.retryAfter) }),
    };
  }
  return { headers };
}

const WINDOW_HEADER = String(WINDOW_SECONDS);

function addressVerdict(c: WindowCounts, nowMs: number): LimitVerdict {
  const w = windowState(c, ADDRESS_WINDOW, nowMs, WINDOW_MS);
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(w.limit),
    'X-RateLimit-Remaining': String(w.remaining),
    'X-RateLimit-Reset': String(w.reset),
    'X-RateLimit-Window': WINDOW_HEADER,
  };
  if (c.allowed) return { headers };
  return {
    headers,
    reason: 'rate_limited',
    refusal: new AppError('rate_limited', `Too many requests without a valid key or to routes that do not exist from this address: at most ${ADDRESS_WINDOW} per ${WINDOW_SECONDS} seconds. Retry after ${w.retryAfter} second${w.retryAfter === 1 ? '' : 's'}.`, undefined, { 'Retry-After': String(w.retryAfter) }),
  };
}
