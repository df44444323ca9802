import { randomBytes, timingSafeEqual } from 'node:crypto';
import { findAccount } from '../../db/repositories/accounts.js';
import { deleteEndedSessions, findLiveSession, insertSession, revokeSession } from '../../db/repositories/sessions.js';
import { touchUserSignIn } from '../../db/repositories/users.js';
import type { PendingStep, Plan, UserRow } from '../../db/tables.js';
import type { Trx } from '../../db/handles.js';
import { isoNow } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Role } from '../../lib/member-roles.js';
import { recordActivity } from '../activity/record-activity.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';

// Dashboard sessions live in the store, so signing out (or an operator) ends one at once on every
// instance. The cookie carries a random token; the store keeps its SHA-256 only, so a copy of the
// database signs no one in. Each session has its own CSRF token, which the page sends back in a header
// on every state-changing call.

export type { PendingStep };

export const SESSION_DAYS = 14;
/** A half-signed-in session (password right, second factor pending) lasts this long. */
export const PENDING_SESSION_MINUTES = 10;

export interface SessionView {
  object: 'session';
  user: { id: string; email: string; has_password: boolean; role: Role };
  account: { id: string; name: string; plan: Plan };
  csrf_token: string;
  expires_at: string;
}

export interface Session {
  tokenHash: string;
  /** The role the session was issued under (null: before roles); differs from `role` after a change. */
  issuedRole: Role | null;
  accountId: string;
  userId: string;
  /** The member's role, read with the session on every request (a change counts at the next one). */
  role: Role;
  view: SessionView;
  /** Null for a full session; else what it waits for (only the two-factor routes see such a session). */
  pendingStep: PendingStep | null;
}

/** A new session's cookie token and what the page needs to know. */
export interface StartedSession {
  token: string;
  view: SessionView;
}

/**
 * What sign-in answers when the password was right but a second factor is due: the session it set is
 * good for the two-factor routes only (a code, or enrolling an authenticator when the account
 * requires one), and is replaced by a new one once that is done.
 */
export interface ChallengeView {
  object: 'two_factor_challenge';
  step: PendingStep;
  csrf_token: string;
  expires_at: string;
}

export interface StartedChallenge {
  token: string;
  view: ChallengeView;
}

const token = () => randomBytes(32).toString('base64url');

/** How a session began, for the activity log: the client's address and the way in (password, link…). */
export interface SignInFacts {
  readonly ip: string | null;
  readonly via: 'password' | 'link' | 'sign_up' | 'password_reset' | 'password_change' | 'invitation' | 'sso' | 'two_factor' | 'recovery_code' | (string & {});
}

/**
 * Writes a session inside the caller's unit (sign-up makes the account, the user and the session
 * together), notes the sign-in on the member and, given the facts, in the account's activity log. A
 * half-signed-in session (`pending`: the second factor still due) is no sign-in yet: neither is noted.
 */
export async function insertNewSession(trx: Trx, deps: Pick<DomainDeps, 'clock'>, user: Pick<UserRow, 'id' | 'account_id' | 'email' | 'role'>, facts?: SignInFacts, pending: PendingStep | null = null): Promise<{ token: string; csrf: string; expiresAt: string }> {
  const t = token();
  const csrf = token();
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + (pending ? PENDING_SESSION_MINUTES * 60_000 : SESSION_DAYS * 86_400_000)).toISOString();
  await deleteEndedSessions(trx, user.account_id, user.id, now.toISOString());
  await insertSession(trx, { token_hash: sha256Hex(t), user_id: user.id, account_id: user.account_id, csrf_token: csrf, created_at: now.toISOString(), expires_at: expiresAt, revoked_at: null, role: user.role, pending_step: pending });
  if (pending) return { token: t, csrf, expiresAt };
  await touchUserSignIn(trx, user.account_id, user.id, now.toISOString());
  if (facts) await recordActivity(trx, deps, { accountId: user.account_id, actor: { userId: user.id, email: user.email, ip: facts.ip }, kind: 'member.signed_in', target: user.email, detail: { via: facts.via } });
  return { token: t, csrf, expiresAt };
}

/** A half-signed-in session: the second factor (or enrolling one) is what it may do. */
export async function startPendingSession(deps: Pick<DomainDeps, 'transact' | 'clock'>, user: UserRow, step: PendingStep): Promise<StartedChallenge> {
  const s = await deps.transact((trx) => insertNewSession(trx, deps, user, undefined, step));
  return { token: s.token, view: { object: 'two_factor_challenge', step, csrf_token: s.csrf, expires_at: s.expiresAt } };
}

/**
 * A new session for the user: always a new token (a token the browser brought is never adopted), so
 * every sign-in and every change of power (password, role) rotates the session id.
 */
export async function startSession(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, user: UserRow, facts?: SignInFacts): Promise<StartedSession> {
  const s = await deps.transact((trx) => insertNewSession(trx, deps, user, facts));
  return startedSession(deps, s.token);
}

/** What sign-in answers for a full session just written (by insertNewSession, inside a caller's unit). */
export async function startedSession(deps: Pick<DomainDeps, 'db' | 'clock'>, token: string): Promise<StartedSession> {
  const session = await resolveSession(deps, token);
  if (!session) throw new Error('a session just written was not found');
  return { token, view: session.view };
}

/** The full session a cookie token names, if it is live; its account's plan is read fresh each time. */
export async function resolveSession(deps: Pick<DomainDeps, 'db' | 'clock'>, cookieToken: string | undefined): Promise<Session | undefined> {
  const session = await resolveAnySession(deps, cookieToken);
  return session?.pendingStep === null ? session : undefined;
}

/** The live session a cookie token names, full or half-signed-in (the two-factor routes, sign-in's clean-up). */
export async function resolveAnySession(deps: Pick<DomainDeps, 'db' | 'clock'>, cookieToken: string | undefined): Promise<Session | undefined> {
  if (!cookieToken || cookieToken.length > 100) return undefined;
  const tokenHash = sha256Hex(cookieToken);
  const found = await findLiveSession(deps.db, tokenHash, isoNow(deps.clock));
  if (!found) return undefined;
  const account = await findAccount(deps.db, found.session.account_id);
  if (!account) return undefined;
  return {
    tokenHash,
    issuedRole: found.session.role ?? null,
    accountId: account.id,
    userId: found.user.id,
    role: found.user.role,
    pendingStep: found.session.pending_step ?? null,
    view: {
      object: 'session',
      user: { id: found.user.id, email: found.user.email, has_password: found.user.password_hash !== null, role: found.user.role },
      account: { id: account.id, name: account.name, plan: account.plan },
      csrf_token: found.session.csrf_token,
      expires_at: found.session.expires_at,
    },
  };
}

export async function requireSession(deps: Pick<DomainDeps, 'db' | 'clock'>, cookieToken: string | undefined): Promise<Session> {
  const session = await resolveAnySession(deps, cookieToken);
  if (!session) throw new AppError('session_required', 'Sign in to the dashboard first: this request has no valid session.');
  // A half-signed-in session reaches nothing but the two-factor routes.
  if (session.pendingStep !== null) throw twoFactorDue(session.pendingStep);
  return session;
}

/** A session for the two-factor routes: full, or half-signed-in at one of `steps`. */
export async function requireSessionAt(deps: Pick<DomainDeps, 'db' | 'clock'>, cookieToken: string | undefined, steps: ReadonlyArray<PendingStep | null>): Promise<Session> {
  const session = await resolveAnySession(deps, cookieToken);
  if (!session) throw new AppError('session_required', 'Sign in to the dashboard first: this request has no valid session.');
  if (!steps.includes(session.pendingStep)) throw session.pendingStep ? twoFactorDue(session.pendingStep) : new AppError('parameter_invalid', 'You are signed in already: this step belongs to signing in.');
  return session;
}

function twoFactorDue(step: PendingStep): AppError {
  return new AppError('two_factor_required', step === 'code'
    ? 'Enter the code from your authenticator app first: this session has only your password so far.'
    : 'Your account requires two-factor sign-in: set up an authenticator app first.');
}

/** The CSRF token sent with a state-changing call must be this session's, compared in constant time. */
export function checkCsrf(session: Session, sent: string | undefined): void {
  const expected = Buffer.from(session.view.csrf_token);
  const given = Buffer.from(sent ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError('csrf_token_invalid', 'This request is missing the page\'s CSRF token. Reload the dashboard and try again.');
  }
}

export async function endSession(deps: Pick<DomainDeps, 'transact' | 'clock'>, session: Session): Promise<void> {
  await deps.transact((trx) => revokeSession(trx, session.tokenHash, isoNow(deps.clock)));
}

/**
 * A new session id for a session whose member's role changed since it was issued (session fixation:
 * a change of power never keeps an id issued before it). The CSRF token and the expiry stay, so the
 * open page goes on working; of two requests racing here, one rotates (the other keeps the old,
 * now-ended token for its own answer only). Returns the new cookie token, or undefined.
 */
export async function rotateSession(deps: Pick<DomainDeps, 'transact' | 'clock'>, session: Session): Promise<string | undefined> {
  const t = token();
  const now = isoNow(deps.clock);
  return deps.transact(async (trx) => {
    if (!(await revokeSession(trx, session.tokenHash, now))) return undefined;
    await insertSession(trx, { token_hash: sha256Hex(t), user_id: session.userId, account_id: session.accountId, csrf_token: session.view.csrf_token, created_at: now, expires_at: session.view.expires_at, revoked_at: null, role: session.role, pending_step: session.pendingStep });
    return t;
  });
}
