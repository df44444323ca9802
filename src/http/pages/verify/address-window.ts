import { AppError } from '../../../domain/errors.js';

// A fixed window per client address for the public verifier page: each verification costs a PDF
// worker's time, and the page needs no account, so an address gets a bounded share. Kept in this
// process (a few thousand addresses at most; the oldest forgotten first), like the per-IP limits of
// the other public pages; behind several instances each counts its own.

export const VERIFICATIONS_PER_WINDOW = 30;
export const WINDOW_MS = 10 * 60_000;
const MAX_ADDRESSES = 10_000;

export class AddressWindow {
  private readonly windows = new Map<string, { start: number; count: number }>();

  /** `refusal` words the 429 (the key may be a signing link's rather than an address: the signature styles). */
  constructor(
    private readonly now: () => number,
    private readonly limit = VERIFICATIONS_PER_WINDOW,
    private readonly windowMs = WINDOW_MS,
    private readonly refusal = (limit: number, minutes: number, seconds: number): string => `Too many verifications from your address: at most ${limit} every ${minutes} minutes. Try again in ${seconds} seconds.`,
  ) {}

  /** Counts one request from `address`; throws 429 rate_limited (with Retry-After) past the limit. */
  take(address: string): void {
    const now = this.now();
    let w = this.windows.get(address);
    if (!w || now - w.start >= this.windowMs) {
      this.windows.delete(address);
      w = { start: now, count: 0 };
      if (this.windows.size >= MAX_ADDRESSES) this.windows.delete(this.windows.keys().next().value!);
      this.windows.set(address, w);
    }
    if (w.count >= this.limit) {
      const seconds = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
      throw new AppError('rate_limited', this.refusal(this.limit, this.windowMs / 60_000, seconds), undefined, { 'Retry-After': String(seconds) });
    }
    w.count++;
  }
}
