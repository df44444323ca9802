import type { FastifyInstance } from 'fastify';
import { listActivity } from '../../domain/activity/read-activity.js';
import type { DomainDeps } from '../../domain/context.js';
import { inviteMember, withdrawInvitation } from '../../domain/users/invitations.js';
import { changeRole, listMembers, removeMember, transferOwnership } from '../../domain/users/members.js';
import { actorOf } from './actor.js';
import { sessionGuard, sessionOf } from './guard.js';
import { jsonObject } from './json-input.js';

// Settings → Members and Settings → Activity (issue 39): the signed-in account's members and open
// invitations, invitations made and withdrawn, roles changed, members removed, ownership handed on,
// and the account's activity log. Who may call which is in permissions.ts; another account's member
// or invitation is "not found".

type MemberParams = { Params: { user_id: string } };

export function registerMembersApi(api: FastifyInstance, deps: DomainDeps): void {
  const guard = sessionGuard(deps);
  const account = (req: Parameters<typeof sessionOf>[0]) => sessionOf(req).accountId;

  api.get('/members', { onRequest: guard }, async (req) => listMembers(deps, account(req)));

  api.post('/members/invitations', { onRequest: guard }, async (req, reply) => {
    const body = jsonObject(req, ['email', 'role']);
    // The link goes to the invitee by e-mail only.
    const { invitation } = await inviteMember(deps, account(req), actorOf(req), { email: body['email'], role: body['role'] });
    return reply.code(201).send(invitation);
  });

  api.delete<{ Params: { invitation_id: string } }>('/members/invitations/:invitation_id', { onRequest: guard }, async (req) => withdrawInvitation(deps, account(req), actorOf(req), req.params.invitation_id));

  api.patch<MemberParams>('/members/:user_id', { onRequest: guard }, async (req) => changeRole(deps, account(req), actorOf(req), req.params.user_id, jsonObject(req, ['role'])['role']));

  api.delete<MemberParams>('/members/:user_id', { onRequest: guard }, async (req) => removeMember(deps, account(req), actorOf(req), req.params.user_id));

  api.post('/members/transfer-ownership', { onRequest: guard }, async (req) => transferOwnership(deps, account(req), actorOf(req), jsonObject(req, ['user_id'])['user_id']));

  api.get<{ Querystring: Record<string, string | undefined> }>('/activity', { onRequest: guard }, async (req) => {
    const q = req.query;
    return listActivity(deps, account(req), { kind: q['kind'], member: q['member'], since: q['since'], until: q['until'], limit: q['limit'], starting_after: q['starting_after'] });
  });
}
