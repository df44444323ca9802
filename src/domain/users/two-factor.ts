import { findSignInPolicy } from '../../db/repositories/sso.js';
import { revokeSession, revokeUserSessions } from '../../db/repositories/sessions.js';
import { advanceTotpStep, clearTotp, confirmTotpSecret, consumeRecoveryCode, countRecoveryCodesLeft, findUserTotp, replaceRecoveryCodes, setPendingTotpSecret } from '../../db/repositories/two-factor.js';
import { findUser, findUserByEmail } from '../../db/repositories/users.js';
import type { UserRow, UserTotpRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { qrCodeDataUrl } from '../../lib/qr-code.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { reservePasswordCheck, reserveSecondFactor } from './login-throttle.js';
import { verifyPassword } from './passwords.js';
import { insertNewSession, startedSession, type Session, type SessionView, type StartedSession } from './sessions.js';
import { OPERATOR, recordActivity } from '../activity/record-activity.js';
import type { ActivityKind } from '../../lib/activity-kinds.js';
import { normalizeEmail } from './user-rules.js';
import { givenRecoveryCode, givenTotpCode, matchTotp, newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpUri } from './totp.js';

// Two-factor sign-in (issue 39 item 4): enrolment (a secret shown as a QR code and as text, confirmed
// by a code from it, then ten recovery codes shown once), the second step of sign-in, and turning it
// off with a current code. Every code check is throttled per user like a password; a code works once.

type Deps = Pick<DomainDeps, 'db' | 'transact' | 'clock'>;

export interface TwoFactorView {
  object: 'two_factor';
  enabled: boolean;
  enabled_at: string | null;
  recovery_codes_left: number;
  /** The account requires two-factor sign-in of its password users. */
  required: boolean;
}

export interface EnrolmentView {
  object: 'two_factor_enrolment';
  /** Base32, for typing into an app that cannot scan. */
  secret: string;
  otpauth_url: string;
  /** The otpauth address as a QR code, an SVG `data:` URL. */
  qr_code: string;
}

export interface EnrolledView {
  object: 'two_factor_enrolled';
  /** Shown this once; stored as hashes only. */
  recovery_codes: string[];
  session: SessionView;
}

const wrongCode = (param: string, what = 'code') => new AppError('auth_code_invalid', `That ${what} is not right. Check your authenticator app's code for Formsign and try again.`, param);

/** The session's user and their authenticator (none: no row). */
async function userOf(deps: Deps, session: Session): Promise<UserRow & { totp: UserTotpRow | undefined }> {
  const user = await findUser(deps.db, session.accountId, session.userId);
  if (!user) throw new AppError('session_required', 'Sign in to the dashboard first: this request has no valid session.');
  return { ...user, totp: await findUserTotp(deps.db, user.account_id, user.id) };
}

/** The activity log's entry for a two-factor event of the user (their own doing; the operator's has no actor). */
const entry = (user: UserRow, kind: ActivityKind, ip: string | null, byOperator = false) =>
  ({ accountId: user.account_id, actor: byOperator ? OPERATOR : { userId: user.id, email: user.email, ip }, kind, target: user.email });

export async function twoFactorStatus(deps: Deps, session: Session): Promise<TwoFactorView> {
  const user = await userOf(deps, session);
  const enabled = Boolean(user.totp?.secret);
  const left = enabled ? await countRecoveryCodesLeft(deps.db, user.account_id, user.id) : 0;
  return { object: 'two_factor', enabled, enabled_at: enabled ? (user.totp?.enabled_at ?? null) : null, recovery_codes_left: left, required: (await findSignInPolicy(deps.db, session.accountId)).require_2fa };
}

/**
 * A new secret to scan; it counts only once a code from it is confirmed. From a full session the
 * user's current password is asked first (when they have one): confirming an enrolment ends every
 * other session, so a borrowed or stolen session must not be able to put its own authenticator on
 * the account and lock its owner out. The sign-in step of an account that requires two-factor
 * sign-in comes straight from the password, and a user without a password (single sign-on, sign-in
 * links) has none to give.
 */
export async function beginEnrolment(deps: Deps, session: Session, input: { password?: unknown; ip: string | null }): Promise<EnrolmentView> {
  const user = await userOf(deps, session);
  if (user.totp?.secret) throw new AppError('parameter_invalid', 'Two-factor sign-in is on already. Turn it off first to move it to another authenticator app.');
  if (session.pendingStep === null && user.password_hash) {
    if (typeof input.password !== 'string' || input.password === '') throw new AppError('parameter_missing', 'Enter your current password to set up two-factor sign-in.', 'password');
    // Throttled as a password change is: a held session must not become a way to guess the password.
    const attempt = await reservePasswordCheck(deps, { userId: user.id, ip: input.ip });
    if (!(await verifyPassword(input.password, user.password_hash))) throw new AppError('parameter_invalid', 'The password is wrong.', 'password');
    await attempt.release();
  }
  const secret = newTotpSecret();
  await deps.transact((trx) => setPendingTotpSecret(trx, user.account_id, user.id, secret, isoNow(deps.clock)));
  const uri = totpUri(secret, user.email);
  return { object: 'two_factor_enrolment', secret, otpauth_url: uri, qr_code: await qrCodeDataUrl(uri) };
}

/**
 * Confirms the enrolment with a code from the new secret. The user's every session ends (a session
 * someone else may hold loses access) and this one is replaced by a new, full one.
 */
export async function confirmEnrolment(deps: Deps, session: Session, input: { code: unknown; ip: string | null }): Promise<{ started: StartedSession; recoveryCodes: string[] }> {
  const code = givenTotpCode(input.code);
  const user = await userOf(deps, session);
  const pending = user.totp?.pending_secret;
  if (user.totp?.secret || !pending) throw new AppError('parameter_invalid', 'Start setting up two-factor sign-in first: there is no new authenticator to confirm.');
  const attempt = await reserveSecondFactor(deps, { userId: user.id, ip: input.ip });
  const now = deps.clock.now();
  const step = matchTotp(pending, code, now);
  if (step === null) throw wrongCode('code');
  await attempt.release();
  const { codes, hashes } = newRecoveryCodes();
  const at = now.toISOString();
  const s = await deps.transact(async (trx) => {
    if (!(await confirmTotpSecret(trx, user.account_id, user.id, pending, step, at))) return undefined;
    await replaceRecoveryCodes(trx, user.account_id, user.id, hashes, at);
    await revokeUserSessions(trx, user.account_id, user.id, at);
    await recordActivity(trx, deps, entry(user, 'two_factor.enabled', input.ip));
    // Enrolling as the step of a sign-in finishes that sign-in; from Settings it only renews the session.
    return insertNewSession(trx, deps, user, session.pendingStep === 'enrol' ? { ip: input.ip, via: 'two_factor_enrolment' } : undefined);
  });
  if (!s) throw new AppError('parameter_invalid', 'This set-up was replaced by a newer one meanwhile. Scan the newest QR code and enter a code from it.');
  return { started: await startedSession(deps, s.token), recoveryCodes: codes };
}

/** The second step of sign-in: a code from the app, or one recovery code; then a new, full session. */
export async function verifySecondFactor(deps: Deps, session: Session, input: { code?: unknown; recovery_code?: unknown; ip: string | null }): Promise<StartedSession> {
  const byRecovery = input.code === undefined && input.recovery_code !== undefined;
  const code = byRecovery ? givenRecoveryCode(input.recovery_code) : givenTotpCode(input.code);
  const user = await userOf(deps, session);
  const secret = user.totp?.secret;
  if (!secret) throw new AppError('two_factor_required', 'Two-factor sign-in was turned off for you meanwhile. Sign in again.');
  const attempt = await reserveSecondFactor(deps, { userId: user.id, ip: input.ip });
  const now = deps.clock.now();
  const at = now.toISOString();
  const step = byRecovery ? null : matchTotp(secret, code, now);
  const s = await deps.transact(async (trx) => {
    // A recovery code, and a code of a step not used before, are spent in the same unit that signs in.
    const spent = byRecovery ? await consumeRecoveryCode(trx, user.account_id, user.id, recoveryCodeHash(code), at) : step !== null && (await advanceTotpStep(trx, user.account_id, user.id, step));
    if (!spent) return undefined;
    await revokeSession(trx, session.tokenHash, at);
    if (byRecovery) await recordActivity(trx, deps, entry(user, 'two_factor.recovery_code_used', input.ip));
    return insertNewSession(trx, deps, user, { ip: input.ip, via: byRecovery ? 'recovery_code' : 'two_factor' });
  });
  if (!s) {
    await deps.transact((trx) => recordActivity(trx, deps, entry(user, 'two_factor.failed', input.ip)));
    throw byRecovery ? new AppError('auth_code_invalid', 'That recovery code is not right, or was used already. Each code works once.', 'recovery_code') : wrongCode('code');
  }
  await attempt.release();
  return startedSession(deps, s.token);
}

/** Turns two-factor sign-in off, with a current code from the app; the recovery codes go too. */
export async function disableTwoFactor(deps: Deps, session: Session, input: { code: unknown; ip: string | null }): Promise<TwoFactorView> {
  const code = givenTotpCode(input.code);
  const user = await userOf(deps, session);
  const secret = user.totp?.secret;
  if (!secret) throw new AppError('parameter_invalid', 'Two-factor sign-in is not on.');
  // Turned off, the member would only be sent back to enrolment at the next sign-in (two-factor-gate.ts).
  if ((await findSignInPolicy(deps.db, user.account_id)).require_2fa) {
    throw new AppError('permission_denied', 'Your account requires two-factor sign-in, so it cannot be turned off. An admin can lift the requirement in Settings → Sign-in; to move to a new phone, ask an operator to reset it.', 'code');
  }
  const attempt = await reserveSecondFactor(deps, { userId: user.id, ip: input.ip });
  const step = matchTotp(secret, code, deps.clock.now());
  const done = await deps.transact(async (trx) => {
    if (step === null || !(await advanceTotpStep(trx, user.account_id, user.id, step))) return false;
    await clearTotp(trx, user.account_id, user.id);
    await recordActivity(trx, deps, entry(user, 'two_factor.disabled', input.ip));
    return true;
  });
  if (!done) {
    await deps.transact((trx) => recordActivity(trx, deps, entry(user, 'two_factor.failed', input.ip)));
    throw wrongCode('code');
  }
  await attempt.release();
  return twoFactorStatus(deps, session);
}

/** The operator's way out for a user who lost both the phone and the recovery codes: off, sessions ended. */
export async function resetTwoFactor(deps: Deps, emailInput: string): Promise<{ object: 'user'; id: string; account_id: string; email: string }> {
  const email = normalizeEmail(emailInput, '--email');
  const user = await findUserByEmail(deps.db, email);
  if (!user) throw new AppError('resource_not_found', `No user has the e-mail address ${email}.`, 'email');
  const at = isoNow(deps.clock);
  await deps.transact(async (trx) => {
    await clearTotp(trx, user.account_id, user.id);
    await revokeUserSessions(trx, user.account_id, user.id, at);
    await recordActivity(trx, deps, entry(user, 'two_factor.disabled', null, true));
  });
  return { object: 'user', id: user.id, account_id: user.account_id, email: user.email };
}
