import { countOwners, deleteUser, findUser, findUserByEmail, listAccountUsers, lockAccountMembers, setUserRole } from '../../db/repositories/users.js';
import type { Trx } from '../../db/handles.js';
import { listOpenInvitations } from '../../db/repositories/invitations.js';
import { clearTotp, findUserTotp, usersWithTotp } from '../../db/repositories/two-factor.js';
import type { UserRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { roleAtLeast, type Role } from '../../lib/member-roles.js';
import { recordActivity } from '../activity/record-activity.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { presentInvitation, type InvitationView } from './invitations.js';
import type { MemberActor } from './member-actor.js';
import { checkRole, normalizeEmail } from './user-rules.js';

// An account's members (issue 39 item 2): listed, their roles changed, removed, ownership handed on.
// Who may: the permission table lets admins in; the rules here keep an account with an owner, keep
// the owner's powers to owners, and make a member of another account "not found".

export interface MemberView {
  object: 'member';
  id: string;
  email: string;
  role: Role;
  has_password: boolean;
  two_factor: boolean;
  last_sign_in_at: string | null;
  created_at: string;
}

export interface MembersView {
  object: 'members';
  data: MemberView[];
  invitations: InvitationView[];
}

/** Whether the member signs in with a second factor (a confirmed authenticator, user_totp). */
async function twoFactorOf(deps: Pick<DomainDeps, 'db'>, user: UserRow): Promise<boolean> {
  return Boolean((await findUserTotp(deps.db, user.account_id, user.id))?.secret);
}

export function presentMember(u: UserRow, twoFactor: boolean): MemberView {
  return { object: 'member', id: u.id, email: u.email, role: u.role, has_password: u.password_hash !== null, two_factor: twoFactor, last_sign_in_at: u.last_sign_in_at ?? null, created_at: u.created_at };
}

export type { MemberActor } from './member-actor.js';

export async function listMembers(deps: Pick<DomainDeps, 'db' | 'clock'>, accountId: string): Promise<MembersView> {
  const users = await listAccountUsers(deps.db, accountId);
  const invitations = await listOpenInvitations(deps.db, accountId, isoNow(deps.clock));
  const withTotp = await usersWithTotp(deps.db, accountId);
  return { object: 'members', data: users.map((u) => presentMember(u, withTotp.has(u.id))), invitations: invitations.map(presentInvitation) };
}

async function memberOf(db: DomainDeps['db'] | Trx, accountId: string, userId: string): Promise<UserRow> {
  const user = await findUser(db, accountId, userId);
  if (!user) throw notFound('member', userId, 'user_id');
  return user;
}

/**
 * The member as they are now, read under the account's membership lock: a role read before the
 * transaction may have changed meanwhile (another owner's demotion), and the owner count that follows
 * cannot change under us.
 */
async function lockedMember(trx: Trx, accountId: string, userId: string): Promise<UserRow> {
  await lockAccountMembers(trx, accountId);
  return memberOf(trx, accountId, userId);
}

/** Only an owner touches an owner or makes one. */
function assertMayManage(actor: MemberActor, target: Role, param: string): void {
  if (target === 'owner' && !roleAtLeast(actor.role, 'owner')) {
    throw new AppError('permission_denied', 'Only an owner can change an owner or make someone an owner.', param);
  }
}

const LAST_OWNER = 'An account needs an owner: make another member owner first (Transfer ownership), then change this one.';

/** Changes a member's role; their sessions get a new id at their next request (guard.ts). */
export async function changeRole(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, accountId: string, actor: MemberActor, userId: string, roleInput: unknown): Promise<MemberView> {
  const role = checkRole(roleInput);
  assertMayManage(actor, role, 'role');
  const at = isoNow(deps.clock);
  const user = await deps.transact(async (trx) => {
    // Read and counted under the account's lock: two owners demoting each other at once cannot both
    // pass the count and leave the account without an owner.
    const current = await lockedMember(trx, accountId, userId);
    assertMayManage(actor, current.role, 'user_id');
    if (current.role === role) return current;
    if (current.role === 'owner' && (await countOwners(trx, accountId)) <= 1) throw new AppError('parameter_invalid', LAST_OWNER, 'role');
    if (!(await setUserRole(trx, accountId, userId, role, at))) throw notFound('member', userId, 'user_id');
    await recordActivity(trx, deps, { accountId, actor, kind: 'member.role_changed', target: current.email, detail: { from: current.role, to: role } });
    return { ...current, role, updated_at: at };
  });
  return presentMember(user, await twoFactorOf(deps, user));
}

/** Removes a member: the user, their sessions (every open tab loses access at its next request) and links. */
export async function removeMember(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, accountId: string, actor: MemberActor, userId: string): Promise<MemberView> {
  const user = await deps.transact(async (trx) => {
    const user = await lockedMember(trx, accountId, userId);
    assertMayManage(actor, user.role, 'user_id');
    if (user.role === 'owner' && (await countOwners(trx, accountId)) <= 1) throw new AppError('parameter_invalid', 'The only owner cannot be removed: make another member owner first (Transfer ownership).', 'user_id');
    if (!(await deleteUser(trx, accountId, userId))) throw notFound('member', userId, 'user_id');
    await recordActivity(trx, deps, { accountId, actor, kind: 'member.removed', target: user.email, detail: { role: user.role } });
    // Their authenticator and recovery codes go with them.
    await clearTotp(trx, accountId, userId);
    return user;
  });
  return presentMember(user, false);
}

/** The owner hands ownership to another member, who becomes owner; the giver becomes an admin. */
export async function transferOwnership(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, accountId: string, actor: MemberActor & { userId: string }, userId: unknown): Promise<MembersView> {
  if (typeof userId !== 'string' || userId === '') throw new AppError('parameter_missing', 'Choose the member who becomes the owner.', 'user_id');
  if (!roleAtLeast(actor.role, 'owner')) throw new AppError('permission_denied', 'Only the owner can transfer ownership.');
  const user = await memberOf(deps.db, accountId, userId);
  if (user.id === actor.userId) throw new AppError('parameter_invalid', 'You are the owner already: choose another member.', 'user_id');
  const at = isoNow(deps.clock);
  await deps.transact(async (trx) => {
    // Under the account's lock, the giver must still be an owner (another owner may have demoted them).
    if ((await lockedMember(trx, accountId, actor.userId)).role !== 'owner') throw new AppError('permission_denied', 'Only the owner can transfer ownership.');
    await setUserRole(trx, accountId, user.id, 'owner', at);
    await setUserRole(trx, accountId, actor.userId, 'admin', at);
    await recordActivity(trx, deps, { accountId, actor, kind: 'ownership.transferred', target: user.email, detail: { from_role: user.role } });
  });
  return listMembers(deps, accountId);
}

/** A member by address, for the operator's commands (which name people by e-mail). */
export async function memberByEmail(deps: Pick<DomainDeps, 'db'>, emailInput: string): Promise<UserRow> {
  const email = normalizeEmail(emailInput, '--email');
  const user = await findUserByEmail(deps.db, email);
  if (!user) throw new AppError('resource_not_found', `No user has the e-mail address ${email}.`, 'email');
  return user;
}
