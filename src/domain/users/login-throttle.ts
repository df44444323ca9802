import { clearLoginFailures, deleteEndedWindows, releaseAttempt, reserveAttempt } from '../../db/repositories/sessions.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';

// Password checks are throttled in fixed windows kept in the store, so every instance counts the same.
// An attempt is reserved before its password is checked (one increment that returns the new count),
// so a burst of parallel requests cannot all pass a check made before any of them was counted; an
// attempt that succeeds is given back. The subjects:
// - sign-in: the (e-mail, client address) pair, 5 — guessing one account's password from one address,
//   without letting anyone lock a user out from elsewhere; and the client address, 30 — trying many
//   accounts;
// - password change: the user, 5 (a stolen session gets no more guesses by changing address), and the
//   client address's 30;
// - sign-in and reset e-mails: the address asked about, 3 (nobody's inbox is flooded), and the client
//   address, 10 (one address asking about many); counted whether or not a user has the address;
// - the second factor (a TOTP or recovery code, at sign-in, at enrolment and to turn it off): the user,
//   5 — one user's codes guessed from anywhere (a code has a million values: 5 guesses a quarter of an
//   hour make guessing hopeless) — and the client address's 30, as for a password;
// - sign-up: the client address, 10 accounts made (one address making accounts in bulk); a sign-up
//   that makes no account is given back.

type DepsForThrottle = Pick<DomainDeps, 'transact' | 'clock'>;

export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const LIMIT_PER_EMAIL_AND_IP = 5;
export const LIMIT_PER_IP = 30;
export const PASSWORD_CHECKS_PER_USER = 5;
/** Second-factor codes checked per user in a window (issue 39): the same measure as a password. */
export const SECOND_FACTOR_CHECKS_PER_USER = 5;
export const SIGNUPS_PER_IP = 10;
/** Sign-in and reset e-mails asked for, per address asked about and per client address (issue 37). */
export const ACCESS_EMAILS_PER_ADDRESS = 3;
export const ACCESS_EMAILS_PER_IP = 10;

export interface ThrottleSubjects {
  email: string;
  ip: string | null;
}

interface Limit {
  subject: string;
  limit: number;
  /** A success clears this subject's window (a right password ends the guessing it counts). */
  clearOnSuccess: boolean;
}

/** A reserved attempt; `release` gives it back (the password was right, or no account was made). */
export interface Attempt {
  release(): Promise<void>;
}

const ipLimit = (ip: string | null): Limit[] => (ip ? [{ subject: `ip:${ip}`, limit: LIMIT_PER_IP, clearOnSuccess: false }] : []);

async function reserve(deps: DepsForThrottle, limits: Limit[], message: (wait: string) => string): Promise<Attempt> {
  const now = deps.clock.now();
  const nowMs = now.getTime();
  const windowStartAfter = new Date(nowMs - THROTTLE_WINDOW_MS).toISOString();
  // Always in the same order, so two units on PostgreSQL never wait for each other's rows crosswise.
  const ordered = [...limits].sort((a, b) => (a.subject < b.subject ? -1 : 1));
  const counted = await deps.transact(async (trx) => {
    const out: Array<{ limit: Limit; failures: number; window_start: string }> = [];
    for (const limit of ordered) out.push({ limit, ...(await reserveAttempt(trx, limit.subject, now.toISOString(), windowStartAfter)) });
    return out;
  });
  await deps.transact((trx) => deleteEndedWindows(trx, windowStartAfter));
  const over = counted.filter((c) => c.failures > c.limit.limit);
  if (over.length > 0) {
    // The refused attempt stays counted: it ends no sooner than the window it fell in.
    const waitMs = Math.max(...over.map((c) => Date.parse(c.window_start) + THROTTLE_WINDOW_MS - nowMs));
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    const minutes = Math.ceil(seconds / 60);
    throw new AppError('rate_limited', message(`${minutes} minute${minutes === 1 ? '' : 's'}`), undefined, { 'Retry-After': String(seconds) });
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await deps.transact(async (trx) => {
        for (const c of counted) {
          if (c.limit.clearOnSuccess) await clearLoginFailures(trx, c.limit.subject);
          else await releaseAttempt(trx, c.limit.subject, c.window_start);
        }
      });
    },
  };
}

/** Reserves a sign-in attempt; throws 429 with Retry-After when the pair or the address is past its limit. */
export function reserveLogin(deps: DepsForThrottle, s: ThrottleSubjects): Promise<Attempt> {
  const pair: Limit = { subject: `login:${s.email} ${s.ip ?? '-'}`, limit: LIMIT_PER_EMAIL_AND_IP, clearOnSuccess: true };
  return reserve(deps, [pair, ...ipLimit(s.ip)], (wait) => `Too many failed sign-ins. Try again in ${wait}, or ask your operator for a sign-in link.`);
}

/** Reserves a check of a signed-in user's current password (changing the password). */
export function reservePasswordCheck(deps: DepsForThrottle, s: { userId: string; ip: string | null }): Promise<Attempt> {
  const user: Limit = { subject: `password:${s.userId}`, limit: PASSWORD_CHECKS_PER_USER, clearOnSuccess: true };
  return reserve(deps, [user, ...ipLimit(s.ip)], (wait) => `Too many wrong current passwords. Try again in ${wait}.`);
}

/** Reserves one check of a second-factor code (sign-in, enrolment, turning it off) of the user. */
export function reserveSecondFactor(deps: DepsForThrottle, s: { userId: string; ip: string | null }): Promise<Attempt> {
  const user: Limit = { subject: `second-factor:${s.userId}`, limit: SECOND_FACTOR_CHECKS_PER_USER, clearOnSuccess: true };
  return reserve(deps, [user, ...ipLimit(s.ip)], (wait) => `Too many wrong codes. Try again in ${wait}.`);
}

/** Reserves one sign-up from the address (none counted without an address). */
export async function reserveSignup(deps: DepsForThrottle, ip: string | null): Promise<Attempt> {
  if (!ip) return { release: async () => undefined };
  return reserve(deps, [{ subject: `signup:${ip}`, limit: SIGNUPS_PER_IP, clearOnSuccess: false }], (wait) => `Too many accounts were made from your address. Try again in ${wait}.`);
}

/** Reserves one sign-in or reset e-mail; never given back (the limit is on e-mails asked for). */
export function reserveAccessEmail(deps: DepsForThrottle, s: ThrottleSubjects): Promise<Attempt> {
  const address: Limit = { subject: `access-email:${s.email}`, limit: ACCESS_EMAILS_PER_ADDRESS, clearOnSuccess: false };
  const ip: Limit[] = s.ip ? [{ subject: `access-email-ip:${s.ip}`, limit: ACCESS_EMAILS_PER_IP, clearOnSuccess: false }] : [];
  return reserve(deps, [address, ...ip], (wait) => `Too many sign-in e-mails were asked for. Try again in ${wait}, or use the link already sent.`);
}
