import { parseArgs } from 'node:util';
import type { Deps } from '../deps.js';
import { OPERATOR } from '../domain/activity/record-activity.js';
import { changeRole, memberByEmail, removeMember, type MemberActor } from '../domain/users/members.js';
import { createLoginLink, createUser, LOGIN_LINK_HOURS } from '../domain/users/manage-users.js';
import { ROLES } from '../lib/member-roles.js';
import { print, UsageError } from './output.js';

type Handler = (deps: Deps, args: string[], json: boolean) => Promise<void>;

function flags(args: string[]): { account?: string; email?: string; role?: string } {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, account: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } }, allowPositionals: false, strict: true });
  return values;
}

function need(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

/** The operator acts with an owner's powers (the rules that keep an account with an owner still hold). */
const OPERATOR_ACTOR: MemberActor = { ...OPERATOR, role: 'owner' };

/** Dashboard users (CONTRACT.md Part C; roles, issue 39): make one, give one a sign-in link, set a role, remove one. */
export const USER_COMMANDS: Record<string, Handler> = {
  async 'users create'(deps, args, json) {
    const v = flags(args);
    const user = await createUser(deps.domain, { accountId: need(v.account, '--account'), email: need(v.email, '--email'), role: v.role });
    const link = await createLoginLink(deps.domain, user.email);
    print(json, { ...user, login_link: link }, () =>
      `Created user ${user.id} <${user.email}> (${user.role}) for ${user.account_id}.\nOne-time sign-in link (works once, for ${LOGIN_LINK_HOURS} hours):\n  ${link.url}`,
    );
  },
  async 'users login-link'(deps, args, json) {
    const v = flags(args);
    const link = await createLoginLink(deps.domain, need(v.email, '--email'));
    print(json, link, () => `One-time sign-in link for <${link.email}> (works once, until ${link.expires_at}):\n  ${link.url}`);
  },
  async 'users set-role'(deps, args, json) {
    const v = flags(args);
    const user = await memberByEmail(deps.domain, need(v.email, '--email'));
    const member = await changeRole(deps.domain, user.account_id, OPERATOR_ACTOR, user.id, need(v.role, '--role'));
    print(json, member, () => `User ${member.id} <${member.email}> of ${user.account_id} is now ${member.role}${user.role === member.role ? ' (unchanged)' : ` (was ${user.role}); their open sessions get a new id at their next request`}.`);
  },
  async 'users remove'(deps, args, json) {
    const v = flags(args);
    const user = await memberByEmail(deps.domain, need(v.email, '--email'));
    const member = await removeMember(deps.domain, user.account_id, OPERATOR_ACTOR, user.id);
    print(json, { ...member, deleted: true }, () => `Removed user ${member.id} <${member.email}> (${member.role}) from ${user.account_id}; their sessions are ended.`);
  },
};

export const USER_USAGE = `  users create --account ID --email E [--role ${ROLES.join('|')}]
                                          a dashboard user (default role: owner), printed with a one-time sign-in link
  users login-link --email E              a one-time dashboard sign-in link
  users set-role --email E --role ${ROLES.join('|')}
                                          change a user's role (an account keeps at least one owner)
  users remove --email E                  remove a user and end their sessions (not an account's only owner)`;
