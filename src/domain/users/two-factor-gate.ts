import { findSignInPolicy } from '../../db/repositories/sso.js';
import { findUserTotp } from '../../db/repositories/two-factor.js';
import type { UserRow } from '../../db/tables.js';
import type { DomainDeps } from '../context.js';
import { assertAccountTakesPasswords } from '../sso/sso-domains.js';
import { startPendingSession, startSession, type SignInFacts, type StartedChallenge, type StartedSession } from './sessions.js';

/**
 * After a first factor (a password, an e-mailed link or reset link): a user with two-factor sign-in
 * gets a half-signed-in session that waits for a code; a user of an account requiring it who has none
 * yet gets one that waits for enrolment; everyone else a full session. The sign-in is logged when the
 * session is a full one (two-factor.ts logs it after the second step).
 */
export async function afterFirstFactor(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, user: UserRow, facts: SignInFacts): Promise<StartedSession | StartedChallenge> {
  // Every first factor here is not the identity provider's: the last word for an account requiring it
  // (the callers also check inside the transaction that spends their link).
  await assertAccountTakesPasswords(deps.db, user.account_id);
  if ((await findUserTotp(deps.db, user.account_id, user.id))?.secret) return startPendingSession(deps, user, 'code');
  if ((await findSignInPolicy(deps.db, user.account_id)).require_2fa) return startPendingSession(deps, user, 'enrol');
  return startSession(deps, user, facts);
}
