// The contract's attempt schedule (the Standard Webhooks one), in one table: the wait before each
// attempt after the previous one failed. Ten attempts over about three days. WEBHOOK_RETRY_SCALE
// multiplies every entry (tests run the whole schedule in seconds).

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

export const ATTEMPT_DELAYS_MS: readonly number[] = [0, 5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H];

export const MAX_ATTEMPTS = ATTEMPT_DELAYS_MS.length;

/** A webhook whose attempts have all failed for this long is disabled (scaled like the schedule). */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * H;

/** A Retry-After longer than the longest wait of the schedule is capped to it. */
const RETRY_AFTER_CAP_MS = 24 * H;

/**
 * The wait before attempt `next` (2..MAX_ATTEMPTS): the table's entry scaled, with ±10 % jitter so
 * deliveries that failed together do not all come back in the same instant. A `Retry-After` the
 * receiver sent with 429 or 503 is honoured as a floor (seconds or an HTTP date), unscaled: it is the
 * receiver's own word.
 */
export function delayBeforeAttemptMs(next: number, o: { scale: number; random: () => number; retryAfter?: string | undefined; now: number }): number {
  const base = (ATTEMPT_DELAYS_MS[next - 1] ?? ATTEMPT_DELAYS_MS[MAX_ATTEMPTS - 1]!) * o.scale;
  const jittered = Math.round(base * (0.9 + 0.2 * o.random()));
  const floor = o.retryAfter === undefined ? 0 : retryAfterMs(o.retryAfter, o.now);
  return Math.max(jittered, Math.min(floor, RETRY_AFTER_CAP_MS));
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; 0 when unreadable. */
export function retryAfterMs(value: string, now: number): number {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? 0 : Math.max(0, at - now);
}
