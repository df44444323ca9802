import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { endSession, resolveAnySession, type ChallengeView, type SessionView } from '../../domain/users/sessions.js';
import { readSessionCookie, setSessionCookie } from './session-cookie.js';

/** A session a sign-in step made: full (SessionView) or waiting for a second factor (ChallengeView). */
export interface Started {
  token: string;
  view: SessionView | ChallengeView;
}

/**
 * Sets the new session's cookie and ends the one the browser held before, full or half-signed-in (a
 * token the browser brought is never adopted: the session id changes at every step of signing in).
 */
export async function replaceSession(deps: DomainDeps, req: FastifyRequest, reply: FastifyReply, s: Started): Promise<void> {
  const previous = await resolveAnySession(deps, readSessionCookie(req));
  if (previous) await endSession(deps, previous);
  setSessionCookie(reply, s.token, s.view.expires_at, deps.baseUrl.startsWith('https:'));
}

export async function sendStarted(deps: DomainDeps, req: FastifyRequest, reply: FastifyReply, s: Started, status = 200): Promise<FastifyReply> {
  await replaceSession(deps, req, reply, s);
  return reply.code(status).send(s.view);
}
