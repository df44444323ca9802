import assert from 'node:assert/strict';
import type { Harness } from '../harness.js';
import { inviteMember } from '../../src/domain/users/invitations.js';
import type { Role } from '../../src/lib/member-roles.js';
import { PASSWORD, uniqueEmail, visitor, type Visitor } from '../dashboard/support.js';

// Members for the teams tests: invited by the account's owner (the use case itself, which also
// writes the e-mail), joined through the dashboard API with a password, signed in.

export type Member = Visitor & { email: string; userId: string; role: Role };

/** The token of an invitation link (`…/dashboard/join#<token>`). */
export function tokenOf(url: string): string {
  const token = /\/dashboard\/join#([A-Za-z0-9_-]{43})$/.exec(url)?.[1];
  return token ?? assert.fail(`not an invitation link: ${url}`);
}

export async function joinedMember(h: Harness, owner: { accountId: string; email: string }, role: Role, prefix: string = role): Promise<Member> {
  const email = uniqueEmail(prefix);
  const { url } = await inviteMember(h.deps.domain, owner.accountId, { userId: null, email: owner.email, ip: null, role: 'owner' }, { email, role });
  const v = visitor(h);
  const res = await v.call('POST', '/dashboard/api/invitation/accept', { json: { token: tokenOf(url), password: PASSWORD } });
  assert.equal(res.status, 201, res.body);
  const session = res.json<{ user: { id: string; role: Role }; account: { id: string } }>();
  assert.equal(session.user.role, role);
  assert.equal(session.account.id, owner.accountId);
  return Object.assign(v, { email, userId: session.user.id, role });
}

/** Signs the visitor in again with the test password (after a sign-out). */
export async function signIn(v: Visitor, email: string): Promise<void> {
  const res = await v.call('POST', '/dashboard/api/login', { json: { email, password: PASSWORD } });
  assert.equal(res.status, 200, res.body);
}
