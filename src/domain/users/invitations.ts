import { randomBytes } from 'node:crypto';
import { findAccount } from '../../db/repositories/accounts.js';
import { findOpenInvitationByToken, insertInvitation, markInvitationAccepted, revokeInvitation, revokeInvitationsFor } from '../../db/repositories/invitations.js';
import { findUserByEmail, insertUser } from '../../db/repositories/users.js';
import type { InvitationRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import type { Role } from '../../lib/member-roles.js';
import { recordActivity } from '../activity/record-activity.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { composeInvitationEmail } from './compose-invitation-email.js';
import type { MemberActor } from './member-actor.js';
import { hashPassword } from './passwords.js';
import { assertAccountTakesPasswords, assertNotClaimedElsewhere } from '../sso/sso-domains.js';
import type { StartedChallenge, StartedSession } from './sessions.js';
import { afterFirstFactor } from './two-factor-gate.js';
import { queueUserEmail } from './user-email.js';
import { checkNewPassword, checkRole, normalizeEmail } from './user-rules.js';

// Invitations (issue 39 item 2): an admin invites an address with a role; the address gets an e-mail
// with a one-time link (through the outbox), valid INVITATION_DAYS; the invitee opens it, chooses a
// password and is a member, signed in. Only the token's SHA-256 is stored; the link works once
// (the acceptance is a conditional update) and a new invitation to the same address withdraws the old.

export const INVITATION_DAYS = 7;
/** Where the link lands: the page reads the token from the fragment, which never reaches a server log. */
export const INVITATION_PATH = '/dashboard/join#';

export interface InvitationView {
  object: 'invitation';
  id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

export function presentInvitation(r: InvitationRow): InvitationView {
  return { object: 'invitation', id: r.id, email: r.email, role: r.role, invited_by: r.invited_by, created_at: r.created_at, expires_at: r.expires_at };
}

const TAKEN = 'A Formsign user has this address already (an address belongs to one account). Ask them to use another address, or an operator to move them.';

/** Invites an address with a role; the invitation and its e-mail are written together. The link is returned for the caller's own use (tests, the CLI), never sent back to the page. */
export async function inviteMember(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'baseUrl'>, accountId: string, actor: MemberActor, input: { email: unknown; role: unknown }): Promise<{ invitation: InvitationView; url: string }> {
  const email = normalizeEmail(input.email);
  const role = checkRole(input.role);
  if (role === 'owner' && actor.role !== 'owner') throw new AppError('permission_denied', 'Only an owner can invite an owner.', 'role');
  const account = await findAccount(deps.db, accountId);
  if (!account) throw notFound('account', accountId, 'account');
  if (await findUserByEmail(deps.db, email)) throw new AppError('email_taken', TAKEN, 'email');
  await assertNotClaimedElsewhere(deps.db, email, accountId);
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const row: InvitationRow = {
    id: newId('invitation'),
    account_id: accountId,
    email,
    role,
    token_hash: sha256Hex(token),
    invited_by: actor.email,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString(),
    accepted_at: null,
    revoked_at: null,
  };
  const url = `${deps.baseUrl}${INVITATION_PATH}${token}`;
  await deps.transact(async (trx) => {
    await revokeInvitationsFor(trx, accountId, email, row.created_at);
    await insertInvitation(trx, row);
    const composed = composeInvitationEmail({ to: email, accountName: account.name, invitedBy: actor.email, role, url, days: INVITATION_DAYS, baseUrl: deps.baseUrl });
    await queueUserEmail(trx, deps, { accountId, kind: 'member_invitation', to: email, ...composed });
    await recordActivity(trx, deps, { accountId, actor, kind: 'member.invited', target: email, detail: { role } });
  });
  return { invitation: presentInvitation(row), url };
}

/** Withdraws an open invitation of this account (another account's is "not found"). */
export async function withdrawInvitation(deps: Pick<DomainDeps, 'transact' | 'clock'>, accountId: string, actor: MemberActor, id: string): Promise<InvitationView> {
  const at = isoNow(deps.clock);
  return deps.transact(async (trx) => {
    const row = await revokeInvitation(trx, accountId, id, at);
    if (!row) throw notFound('open invitation', id, 'invitation_id');
    await recordActivity(trx, deps, { accountId, actor, kind: 'invitation.revoked', target: row.email, detail: { role: row.role } });
    return presentInvitation(row);
  });
}

const INVALID = 'This invitation is not valid: it was used already, withdrawn, has expired or was not copied whole. Ask whoever invited you for a new one.';

function tokenHashOf(token: unknown): string {
  if (typeof token !== 'string' || token.length === 0 || token.length > 100) throw new AppError('link_expired', INVALID);
  return sha256Hex(token);
}

/** What the invitation page shows before the invitee chooses a password. */
export async function lookupInvitation(deps: Pick<DomainDeps, 'db' | 'clock'>, token: unknown): Promise<{ object: 'invitation_preview'; email: string; role: Role; account_name: string; expires_at: string }> {
  const row = await findOpenInvitationByToken(deps.db, tokenHashOf(token), isoNow(deps.clock));
  const account = row ? await findAccount(deps.db, row.account_id) : undefined;
  if (!row || !account) throw new AppError('link_expired', INVALID);
  return { object: 'invitation_preview', email: row.email, role: row.role, account_name: account.name, expires_at: row.expires_at };
}

/**
 * Accepts an invitation: spends it (once), makes the member with the invited role and the chosen
 * password, and signs them in with a new session (or the two-factor step the account asks for). A password that breaks the rules is refused before
 * the link is spent, so the invitee can try another with the same link.
 */
export async function acceptInvitation(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'passwordCost'>, input: { token: unknown; password: unknown; ip: string | null }): Promise<StartedSession | StartedChallenge> {
  const hashOfToken = tokenHashOf(input.token);
  const password = checkNewPassword(input.password);
  const passwordHash = await hashPassword(password, deps.passwordCost);
  const now = isoNow(deps.clock);
  const user = await deps.transact(async (trx) => {
    const invitation = await findOpenInvitationByToken(trx, hashOfToken, now);
    if (!invitation || !(await markInvitationAccepted(trx, invitation.id, now))) throw new AppError('link_expired', INVALID);
    // An account requiring single sign-on takes no password: the invitee signs in with SSO (the refusal
    // rolls back, so the invitation stays open).
    await assertAccountTakesPasswords(trx, invitation.account_id, 'password');
    if (await findUserByEmail(trx, invitation.email)) throw new AppError('email_taken', TAKEN, 'email');
    const row = { id: newId('user'), account_id: invitation.account_id, email: invitation.email, password_hash: passwordHash, role: invitation.role, last_sign_in_at: null, created_at: now, updated_at: now };
    await insertUser(trx, row);
    await recordActivity(trx, deps, { accountId: row.account_id, actor: { userId: row.id, email: row.email, ip: input.ip }, kind: 'member.joined', target: row.email, detail: { role: row.role, invited_by: invitation.invited_by } });
    return row;
  });
  // A password is a first factor: an account requiring two-factor sign-in sends the invitee to enrolment.
  return afterFirstFactor(deps, user, { ip: input.ip, via: 'invitation' });
}
