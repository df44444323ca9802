import { findAccount } from '../../db/repositories/accounts.js';
import { consumeLoginLink, revokeUserSessions } from '../../db/repositories/sessions.js';
import { findUser, findUserByEmail, findUserById, insertUser, setUserPassword } from '../../db/repositories/users.js';
import { isoNow } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import type { Role } from '../../lib/member-roles.js';
import { OPERATOR, recordActivity } from '../activity/record-activity.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { issueLoginLink, LINK_PATHS } from './access-emails.js';
import { reservePasswordCheck } from './login-throttle.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { startSession, type Session, type StartedChallenge, type StartedSession } from './sessions.js';
import { assertAccountTakesPasswords } from '../sso/sso-domains.js';
import { afterFirstFactor } from './two-factor-gate.js';
import { checkNewPassword, checkRole, normalizeEmail } from './user-rules.js';

export interface UserView {
  object: 'user';
  id: string;
  account_id: string;
  email: string;
  role: Role;
  has_password: boolean;
  created_at: string;
}

export interface LoginLinkView {
  object: 'login_link';
  user_id: string;
  email: string;
  url: string;
  expires_at: string;
}

/** How long a one-time sign-in link works. */
export const LOGIN_LINK_HOURS = 24;
/** Where a link lands: the page reads the token from the fragment, which never reaches a server log. */
export const LOGIN_LINK_PATH = LINK_PATHS.sign_in;

/**
 * An operator's user (`formsign users create [--role R]`, the demo account): no password until they
 * set one. Without a role, `owner`: what every user was before roles (issue 39).
 */
export async function createUser(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, input: { accountId: string; email: string; role?: unknown }): Promise<UserView> {
  const email = normalizeEmail(input.email, '--email');
  const role = input.role === undefined ? 'owner' : checkRole(input.role, '--role');
  if (!(await findAccount(deps.db, input.accountId))) throw notFound('account', input.accountId, 'account');
  if (await findUserByEmail(deps.db, email)) throw new AppError('email_taken', `A user with the e-mail address ${email} exists already.`, 'email');
  const now = isoNow(deps.clock);
  const row = { id: newId('user'), account_id: input.accountId, email, password_hash: null, role, created_at: now, updated_at: now };
  await deps.transact(async (trx) => {
    await insertUser(trx, row);
    await recordActivity(trx, deps, { accountId: row.account_id, actor: OPERATOR, kind: 'member.joined', target: email, detail: { role, via: 'operator' } });
  });
  return { object: 'user', id: row.id, account_id: row.account_id, email, role, has_password: false, created_at: now };
}

/** A one-time sign-in link for the user with this e-mail address (the operator's command). */
export async function createLoginLink(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'baseUrl'>, emailInput: string): Promise<LoginLinkView> {
  const email = normalizeEmail(emailInput, '--email');
  const user = await findUserByEmail(deps.db, email);
  if (!user) throw new AppError('resource_not_found', `No user has the e-mail address ${email}.`, 'email');
  const link = await deps.transact((trx) => issueLoginLink(trx, deps, user, 'sign_in', LOGIN_LINK_HOURS * 60));
  return { object: 'login_link', user_id: user.id, email, url: link.url, expires_at: link.expiresAt };
}

/** Signs in with a link's token, once; a used, expired or unknown token gets the same answer. */
export async function logInWithLink(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, token: unknown, ip: string | null = null): Promise<StartedSession | StartedChallenge> {
  const invalid = new AppError('login_failed', 'This sign-in link is not valid: it was used already, has expired or was not copied whole. Ask for a new one on the sign-in page.');
  if (typeof token !== 'string' || token.length === 0 || token.length > 100) throw invalid;
  const user = await deps.transact(async (trx) => {
    const userId = await consumeLoginLink(trx, sha256Hex(token), isoNow(deps.clock), 'sign_in');
    const found = userId ? await findUserById(trx, userId) : undefined;
    if (!found) throw invalid;
    // Refused before the link counts as used: an account requiring single sign-on takes no link.
    await assertAccountTakesPasswords(trx, found.account_id);
    return found;
  });
  // A link is one factor, as a password is: two-factor sign-in still asks for its code.
  return afterFirstFactor(deps, user, { ip, via: 'link' });
}

/**
 * Sets the signed-in user's password. Changing one needs the current password; a user who has none yet
 * (signed in by link) sets a first one. Every session of the user ends and this one is replaced by a
 * new session, so a password change also signs out a session someone else may hold.
 */
export async function setPassword(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'passwordCost'>, session: Session, input: { current_password?: unknown; new_password: unknown; ip: string | null }): Promise<StartedSession> {
  const password = checkNewPassword(input.new_password, 'new_password');
  const user = await findUser(deps.db, session.accountId, session.userId);
  if (!user) throw new AppError('session_required', 'Sign in to the dashboard first: this request has no valid session.');
  await assertAccountTakesPasswords(deps.db, user.account_id);
  if (user.password_hash) {
    const current = typeof input.current_password === 'string' ? input.current_password : '';
    // Throttled as sign-in is: a stolen session must not become a way to guess the password.
    const attempt = await reservePasswordCheck(deps, { userId: user.id, ip: input.ip });
    if (!(await verifyPassword(current, user.password_hash))) throw new AppError('parameter_invalid', 'The current password is wrong.', 'current_password');
    await attempt.release();
  }
  const hash = await hashPassword(password, deps.passwordCost);
  const at = isoNow(deps.clock);
  await deps.transact(async (trx) => {
    await setUserPassword(trx, user.account_id, user.id, hash, at);
    await revokeUserSessions(trx, user.account_id, user.id, at);
    await recordActivity(trx, deps, { accountId: user.account_id, actor: { userId: user.id, email: user.email, ip: input.ip }, kind: 'member.password_changed', target: user.email, detail: { via: user.password_hash ? 'change' : 'first' } });
  });
  return startSession(deps, { ...user, password_hash: hash });
}
