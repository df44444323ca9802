import type { RetryPolicy } from './job.js';

/**
 * The wait before the attempt after `attempt` (1-based) failed: exponential from the policy's base,
 * capped, with "equal jitter" (half fixed, half random) so jobs that failed together — a mail server
 * that was down for everyone — do not all come back in the same second, yet none retries at once.
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, random: () => number): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + (random() * exp) / 2);
}
