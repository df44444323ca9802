import type { FastifyRequest } from 'fastify';
import { withActivity, type ActivityEntry } from '../../domain/activity/record-activity.js';
import type { DomainDeps } from '../../domain/context.js';
import type { MemberActor } from '../../domain/users/members.js';
import { sessionOf } from './guard.js';

/** The signed-in member as the activity log names them: who, from which address, with which role. */
export function actorOf(req: FastifyRequest): MemberActor & { userId: string } {
  const s = sessionOf(req);
  return { userId: s.userId, email: s.view.user.email, ip: clientIp(req), role: s.role };
}

/** The client's address: the peer's, or with TRUST_PROXY the one a trusted proxy forwarded. */
export function clientIp(req: FastifyRequest): string | null {
  return req.ip || null;
}

/**
 * The deps for a settings change made by the signed-in member: its transaction also writes a
 * `settings.changed` entry naming the setting (none when the write changed nothing and said so).
 */
export function settingsChange(deps: DomainDeps, req: FastifyRequest, setting: string, detail?: ActivityEntry['detail']): DomainDeps {
  return withActivity(deps, (result) => (result === false ? null : { accountId: sessionOf(req).accountId, actor: actorOf(req), kind: 'settings.changed', target: setting, ...(detail ? { detail } : {}) }));
}
