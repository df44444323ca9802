import { clearLoginFailures, countLoginFailure, findLoginFailures } from '../../db/repositories/sessions.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';

// Wrong passwords are counted per e-mail address (guessing one account's password) and per client
// address (trying many accounts), in fixed windows kept in the store. Past a limit, sign-ins for that
// subject are refused, right password or not, until the window ends.

export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const LIMIT_PER_EMAIL = 5;
export const LIMIT_PER_IP = 30;

export interface ThrottleSubjects {
  email: string;
  ip: string | null;
}

function subjects(s: ThrottleSubjects): Array<{ subject: string; limit: number }> {
  return [{ subject: `email:${s.email}`, limit: LIMIT_PER_EMAIL }, ...(s.ip ? [{ subject: `ip:${s.ip}`, limit: LIMIT_PER_IP }] : [])];
}

/** Throws 429 with Retry-After while either subject is over its limit. */
export async function assertNotThrottled(deps: Pick<DomainDeps, 'db' | 'clock'>, s: ThrottleSubjects): Promise<void> {
  const limits = subjects(s);
  const rows = await findLoginFailures(deps.db, limits.map((l) => l.subject));
  const now = deps.clock.now().getTime();
  let waitMs = 0;
  for (const row of rows) {
    const limit = limits.find((l) => l.subject === row.subject)!.limit;
    const endsAt = Date.parse(row.window_start) + THROTTLE_WINDOW_MS;
    if (row.failures >= limit && endsAt > now) waitMs = Math.max(waitMs, endsAt - now);
  }
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    const minutes = Math.ceil(seconds / 60);
    throw new AppError('rate_limited', `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or ask your operator for a sign-in link.`, undefined, { 'Retry-After': String(seconds) });
  }
}

export async function recordLoginFailure(deps: Pick<DomainDeps, 'transact' | 'clock'>, s: ThrottleSubjects): Promise<void> {
  const now = deps.clock.now();
  const windowStartAfter = new Date(now.getTime() - THROTTLE_WINDOW_MS).toISOString();
  await deps.transact(async (trx) => {
    for (const { subject } of subjects(s)) await countLoginFailure(trx, subject, now.toISOString(), windowStartAfter);
  });
}

/** A successful sign-in clears the e-mail's count (the address's count runs out on its own). */
export async function clearEmailFailures(deps: Pick<DomainDeps, 'transact'>, email: string): Promise<void> {
  await deps.transact((trx) => clearLoginFailures(trx, `email:${email}`));
}
