import { findUserByEmail } from '../../db/repositories/users.js';
import { recordActivity } from '../activity/record-activity.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { reserveLogin } from './login-throttle.js';
import { burnPasswordCheck, verifyPassword } from './passwords.js';
import { assertPasswordAllowed } from '../sso/sso-domains.js';
import type { StartedChallenge, StartedSession } from './sessions.js';
import { afterFirstFactor } from './two-factor-gate.js';
import { givenPassword, normalizeEmail } from './user-rules.js';

const WRONG = 'The e-mail address or the password is wrong.';

/**
 * Sign-in with e-mail and password; the same answer for an unknown address and a wrong password. A user
 * with two-factor sign-in (or who must enrol it) gets a half-signed-in session (two-factor-gate.ts).
 */
export async function logIn(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'passwordCost'>, input: { email: unknown; password: unknown; ip: string | null }): Promise<StartedSession | StartedChallenge> {
  const email = normalizeEmail(input.email);
  const password = givenPassword(input.password);
  // Counted before the password is checked (given back on success), so parallel guesses cannot all
  // slip past the limit while their hashes are being computed.
  const attempt = await reserveLogin(deps, { email, ip: input.ip });
  const user = await findUserByEmail(deps.db, email);
  // An account that signs in through its identity provider takes no password (issue 39).
  await assertPasswordAllowed(deps.db, email, user);
  const ok = user?.password_hash ? await verifyPassword(password, user.password_hash) : (await burnPasswordCheck(password, deps.passwordCost), false);
  if (!ok || !user) {
    // A wrong password for a member's address goes in their account's log (an unknown address has none).
    if (user) await deps.transact((trx) => recordActivity(trx, deps, { accountId: user.account_id, actor: { userId: null, email: null, ip: input.ip }, kind: 'member.sign_in_failed', target: user.email }));
    throw new AppError('login_failed', user && !user.password_hash ? `${WRONG} If you were given a sign-in link, use it, then set a password.` : WRONG);
  }
  await attempt.release();
  return afterFirstFactor(deps, user, { ip: input.ip, via: 'password' });
}
