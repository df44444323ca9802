import { clearLoginFailures, countLoginFailure, findLoginFailures } from '../../db/repositories/sessions.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';

// Wrong passwords are counted per e-mail address (guessing one account's password) and per client
// address (trying many accounts), in fixed windows kept in the store, so every instance counts the
// same. Past a limit, sign-ins for that subject are refused, right password or not, until the window
// ends. Sign-ups are counted per client address the same way (one address making accounts in bulk).

export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const LIMIT_PER_EMAIL = 5;
export const LIMIT_PER_IP = 30;
export const SIGNUPS_PER_IP = 10;

export interface ThrottleSubjects {
  email: string;
  ip: string | null;
}

interface Limit {
  subject: string;
  limit: number;
}

function loginLimits(s: ThrottleSubjects): Limit[] {
  return [{ subject: `email:${s.email}`, limit: LIMIT_PER_EMAIL }, ...(s.ip ? [{ subject: `ip:${s.ip}`, limit: LIMIT_PER_IP }] : [])];
}

/** Throws 429 with Retry-After while any subject is at its limit in the current window. */
async function assertUnder(deps: Pick<DomainDeps, 'db' | 'clock'>, limits: Limit[], message: (wait: string) => string): Promise<void> {
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
    throw new AppError('rate_limited', message(`${minutes} minute${minutes === 1 ? '' : 's'}`), undefined, { 'Retry-After': String(seconds) });
  }
}

async function count(deps: Pick<DomainDeps, 'transact' | 'clock'>, subjects: string[]): Promise<void> {
  const now = deps.clock.now();
  const windowStartAfter = new Date(now.getTime() - THROTTLE_WINDOW_MS).toISOString();
  await deps.transact(async (trx) => {
    for (const subject of subjects) await countLoginFailure(trx, subject, now.toISOString(), windowStartAfter);
  });
}

export async function assertNotThrottled(deps: Pick<DomainDeps, 'db' | 'clock'>, s: ThrottleSubjects): Promise<void> {
  await assertUnder(deps, loginLimits(s), (wait) => `Too many failed sign-ins. Try again in ${wait}, or ask your operator for a sign-in link.`);
}

export async function recordLoginFailure(deps: Pick<DomainDeps, 'transact' | 'clock'>, s: ThrottleSubjects): Promise<void> {
  await count(deps, loginLimits(s).map((l) => l.subject));
}

/** A successful sign-in clears the e-mail's count (the address's count runs out on its own). */
export async function clearEmailFailures(deps: Pick<DomainDeps, 'transact'>, email: string): Promise<void> {
  await deps.transact((trx) => clearLoginFailures(trx, `email:${email}`));
}

export async function assertSignupAllowed(deps: Pick<DomainDeps, 'db' | 'clock'>, ip: string | null): Promise<void> {
  if (ip) await assertUnder(deps, [{ subject: `signup:${ip}`, limit: SIGNUPS_PER_IP }], (wait) => `Too many accounts were made from your address. Try again in ${wait}.`);
}

export async function recordSignup(deps: Pick<DomainDeps, 'transact' | 'clock'>, ip: string | null): Promise<void> {
  if (ip) await count(deps, [`signup:${ip}`]);
}
