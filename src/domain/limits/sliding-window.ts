// The sliding-window counter (as Cloudflare describes it): two fixed windows, the previous one
// weighted by the part of it still inside the sliding window. `estimate = prev × (1 − f) + cur`, where
// f is how far into the current fixed window `now` is. A request passes when estimate + 1 ≤ limit,
// and only passing requests are counted. Pure arithmetic here; the stores (memory, Redis) keep counts.

export interface WindowCounts {
  /** Requests counted in the previous fixed window. */
  readonly prev: number;
  /** Requests counted in the current fixed window, this one included when it passed. */
  readonly cur: number;
  readonly allowed: boolean;
}

/** What a store is asked: count `cost` (0 = only look) against `limit` for `key` at `nowMs`. */
export interface WindowStore {
  hit(key: string, limit: number, cost: number, nowMs: number): WindowCounts | Promise<WindowCounts>;
  close(): Promise<void>;
}

export interface WindowState {
  readonly limit: number;
  readonly remaining: number;
  /** Unix seconds, always after now: when the window frees its next request. */
  readonly reset: number;
  /** Seconds until a request can pass again (≥ 1); meaningful only when none remains. */
  readonly retryAfter: number;
}

export function windowIndex(nowMs: number, windowMs: number): number {
  return Math.floor(nowMs / windowMs);
}

/** Weight of the previous fixed window at `nowMs`: 1 at the start of the current one, 0 at its end. */
export function previousWeight(nowMs: number, windowMs: number): number {
  return 1 - (nowMs - windowIndex(nowMs, windowMs) * windowMs) / windowMs;
}

export function estimate(c: Pick<WindowCounts, 'prev' | 'cur'>, nowMs: number, windowMs: number): number {
  return c.prev * previousWeight(nowMs, windowMs) + c.cur;
}

/** Earliest time ≥ now when the estimate is at most `target` (counts only ever decay from here). */
export function timeWhenAtMost(c: Pick<WindowCounts, 'prev' | 'cur'>, target: number, nowMs: number, windowMs: number): number {
  const start = windowIndex(nowMs, windowMs) * windowMs;
  if (c.cur <= target) {
    if (c.prev <= 0) return nowMs;
    // prev × (1 − f) ≤ target − cur  ⇔  f ≥ 1 − (target − cur) / prev
    const f = Math.max(0, 1 - (target - c.cur) / c.prev);
    return Math.max(nowMs, start + f * windowMs);
  }
  // The current window's count becomes the previous one's and decays through the next window.
  const f = target <= 0 ? 1 : 1 - target / c.cur;
  return start + windowMs + f * windowMs;
}

/** The headers' view of a store's answer. */
export function windowState(c: WindowCounts, limit: number, nowMs: number, windowMs: number): WindowState {
  const est = estimate(c, nowMs, windowMs);
  const remaining = Math.max(0, Math.floor(limit - est + 1e-9));
  // Full: when one more fits (also the refusal's Retry-After). Otherwise: when the count goes down by
  // one more request.
  const fitsAt = remaining === 0 ? timeWhenAtMost(c, limit - 1, nowMs, windowMs) : nowMs;
  const freesAt = remaining === 0 ? fitsAt : est >= 1 ? timeWhenAtMost(c, est - 1, nowMs, windowMs) : nowMs;
  const nowS = Math.floor(nowMs / 1000);
  return {
    limit,
    remaining,
    reset: Math.max(nowS + 1, Math.ceil(freesAt / 1000)),
    retryAfter: Math.max(1, Math.ceil((fitsAt - nowMs) / 1000)),
  };
}
