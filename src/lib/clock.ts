/** Injected everywhere time matters so expiry, retries and links are testable without sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** RFC 3339 UTC with milliseconds; fixed width, so text ordering equals time ordering in both databases. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}
