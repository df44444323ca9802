import { randomBytes } from 'node:crypto';
import { findAccount } from '../../db/repositories/accounts.js';
import { consumeLoginLink, insertLoginLink, revokeUserSessions } from '../../db/repositories/sessions.js';
import { findUserByEmail, findUserById, setUserPassword } from '../../db/repositories/users.js';
import type { LoginLinkPurpose, UserRow } from '../../db/tables.js';
import type { Trx } from '../../db/handles.js';
import { sha256Hex } from '../../lib/crypto.js';
import { recordActivity } from '../activity/record-activity.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { composeAccessEmail } from './compose-access-email.js';
import { reserveAccessEmail } from './login-throttle.js';
import { hashPassword } from './passwords.js';
import type { StartedChallenge, StartedSession } from './sessions.js';
import { assertAccountTakesPasswords, takesPasswords } from '../sso/sso-domains.js';
import { afterFirstFactor } from './two-factor-gate.js';
import { queueUserEmail } from './user-email.js';
import { checkNewPassword, normalizeEmail } from './user-rules.js';

// Signing in to the dashboard without the command line (issue 37 item 4): the sign-in page asks for an
// e-mail with a one-time link, to sign in or to set a new password. The answer is the same whether or
// not a user has the address (nothing tells a visitor who has an account); requests are throttled per
// address and per client address; a link works once, for EMAILED_LINK_MINUTES, and only its SHA-256 is
// stored. The link and its e-mail are written in one transaction and the e-mail goes out through the
// outbox, like every other message (the dev outbox shows it when no SMTP server is configured).

/** How long an e-mailed link works: long enough to reach an inbox, short enough to be useless later. */
export const EMAILED_LINK_MINUTES = 30;
/** Where each kind of link lands; the page reads the token from the fragment, which no server logs. */
export const LINK_PATHS: Readonly<Record<LoginLinkPurpose, string>> = { sign_in: '/dashboard/link#', reset: '/dashboard/reset#' };

export interface AccessEmailView {
  object: 'access_email';
  email: string;
  purpose: LoginLinkPurpose;
  expires_in_minutes: number;
  message: string;
}

export interface IssuedLink {
  url: string;
  expiresAt: string;
}

/** Writes a new one-time link for the user inside the caller's unit; the token leaves only in the URL. */
export async function issueLoginLink(trx: Trx, deps: Pick<DomainDeps, 'clock' | 'baseUrl'>, user: Pick<UserRow, 'id'>, purpose: LoginLinkPurpose, minutes: number): Promise<IssuedLink> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + minutes * 60_000).toISOString();
  await insertLoginLink(trx, { token_hash: sha256Hex(token), user_id: user.id, purpose, created_at: now.toISOString(), expires_at: expiresAt, used_at: null });
  return { url: `${deps.baseUrl}${LINK_PATHS[purpose]}${token}`, expiresAt };
}

function purposeOf(value: unknown): LoginLinkPurpose {
  if (value === undefined || value === 'sign_in') return 'sign_in';
  if (value === 'reset') return 'reset';
  throw new AppError('parameter_invalid', 'purpose must be "sign_in" or "reset".', 'purpose');
}

/**
 * "E-mail me a sign-in link" / "Forgot password?": e-mails the user with this address a one-time link,
 * if there is such a user, and answers the same either way.
 */
export async function requestAccessEmail(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'baseUrl'>, input: { email: unknown; purpose: unknown; ip: string | null }): Promise<AccessEmailView> {
  const email = normalizeEmail(input.email);
  const purpose = purposeOf(input.purpose);
  // Counted whether or not the address has a user, and never given back: the limit is on e-mails asked for.
  await reserveAccessEmail(deps, { email, ip: input.ip });
  const user = await findUserByEmail(deps.db, email);
  if (user) {
    await deps.transact(async (trx) => {
      // An account requiring single sign-on takes no e-mailed link: nothing is sent, and the answer is
      // the same (it tells a visitor nothing about who has an account).
      if (!(await takesPasswords(trx, user.account_id))) return;
      const link = await issueLoginLink(trx, deps, user, purpose, EMAILED_LINK_MINUTES);
      const account = await findAccount(trx, user.account_id);
      const composed = composeAccessEmail({ purpose, to: email, accountName: account?.name ?? 'Formsign', url: link.url, minutes: EMAILED_LINK_MINUTES, baseUrl: deps.baseUrl });
      await queueUserEmail(trx, deps, { accountId: user.account_id, kind: purpose === 'reset' ? 'password_reset' : 'sign_in_link', to: email, ...composed });
    });
  }
  const what = purpose === 'reset' ? 'a link to set a new password' : 'a sign-in link';
  return {
    object: 'access_email',
    email,
    purpose,
    expires_in_minutes: EMAILED_LINK_MINUTES,
    message: `If a Formsign user has the address ${email}, we have e-mailed ${what} to it. The link works once, for ${EMAILED_LINK_MINUTES} minutes.`,
  };
}

const INVALID_LINK = 'This link is not valid: it was used already, has expired or was not copied whole. Ask for a new one on the sign-in page.';

/**
 * Sets a new password with a reset link's token: the link is spent, every session of the user ends
 * (whoever held one), and a new session starts for this browser. A password that breaks the rules is
 * refused before the link is spent, so the person can try another with the same link.
 */
export async function resetPassword(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'passwordCost'>, input: { token: unknown; new_password: unknown; ip?: string | null }): Promise<StartedSession | StartedChallenge> {
  const password = checkNewPassword(input.new_password, 'new_password');
  const token = input.token;
  if (typeof token !== 'string' || token.length === 0 || token.length > 100) throw new AppError('login_failed', INVALID_LINK);
  const hash = await hashPassword(password, deps.passwordCost);
  const at = deps.clock.now().toISOString();
  const user = await deps.transact(async (trx) => {
    const userId = await consumeLoginLink(trx, sha256Hex(token), at, 'reset');
    const found = userId ? await findUserById(trx, userId) : undefined;
    if (!found) throw new AppError('login_failed', INVALID_LINK);
    await assertAccountTakesPasswords(trx, found.account_id);
    await setUserPassword(trx, found.account_id, found.id, hash, at);
    await revokeUserSessions(trx, found.account_id, found.id, at);
    await recordActivity(trx, deps, { accountId: found.account_id, actor: { userId: found.id, email: found.email, ip: input.ip ?? null }, kind: 'member.password_changed', target: found.email, detail: { via: 'reset_link' } });
    return { ...found, password_hash: hash };
  });
  // A reset link proves the mailbox, not the authenticator: two-factor sign-in still asks for its code.
  return afterFirstFactor(deps, user, { ip: input.ip ?? null, via: 'password_reset' });
}
