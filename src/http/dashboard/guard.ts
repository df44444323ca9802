import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { AppError } from '../../domain/errors.js';
import { checkCsrf, requireSession, requireSessionAt, type PendingStep, type Session } from '../../domain/users/sessions.js';
import { sendJsonError } from '../error-body.js';
import { readSessionCookie } from './session-cookie.js';

// Every dashboard API call but sign-up and sign-in needs a live session; every state-changing one
// also needs the session's CSRF token in a header (a cross-site page can neither read the token nor
// set a custom header without a CORS preflight, which is never granted).

export const CSRF_HEADER = 'x-csrf-token';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

const sessions = new WeakMap<FastifyRequest, Session>();

export function sessionGuard(deps: DomainDeps) {
  return async (req: FastifyRequest): Promise<void> => {
    const session = await requireSession(deps, readSessionCookie(req));
    if (!SAFE.has(req.method)) checkCsrf(session, headerValue(req, CSRF_HEADER));
    sessions.set(req, session);
  };
}

/**
 * The two-factor routes' guard: also lets through a half-signed-in session at one of `steps` (null: a
 * full session), CSRF-checked the same way; every other route's guard refuses such a session.
 */
export function sessionGuardAt(deps: DomainDeps, steps: ReadonlyArray<PendingStep | null>) {
  return async (req: FastifyRequest): Promise<void> => {
    const session = await requireSessionAt(deps, readSessionCookie(req), steps);
    if (!SAFE.has(req.method)) checkCsrf(session, headerValue(req, CSRF_HEADER));
    sessions.set(req, session);
  };
}

/** The session the guard found; a route without the guard has none. */
export function sessionOf(req: FastifyRequest): Session {
  const s = sessions.get(req);
  if (!s) throw new Error('dashboard route without the session guard');
  return s;
}

function headerValue(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

/**
 * Sign-up and sign-in have no session yet, so no CSRF token: they take JSON only (a cross-site form
 * cannot send it) and, where the browser names the origin, only this server's public one (BASE_URL).
 * Compared with BASE_URL, not the Host header: a reverse proxy may rewrite Host, and a name someone
 * points at this server (DNS rebinding) then matches Host but not BASE_URL.
 */
export function assertSameOrigin(req: FastifyRequest, baseUrl: string): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  if (!sameOrigin(origin, baseUrl)) {
    throw new AppError('csrf_token_invalid', `This request comes from another site (${origin.slice(0, 100)}); the dashboard signs in from ${new URL(baseUrl).origin} only (BASE_URL).`);
  }
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** Same scheme, host and port; `localhost`, 127.x.x.x and [::1] are one host (all mean this machine). */
export function sameOrigin(origin: string, baseUrl: string): boolean {
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  const b = new URL(baseUrl);
  if (o.origin === b.origin) return true;
  return o.protocol === b.protocol && o.port === b.port && LOOPBACK.test(o.hostname) && LOOPBACK.test(b.hostname);
}

/** The dashboard API answers in the contract's JSON error shape, never with an HTML page. */
export function jsonErrorHandler(err: Error, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendJsonError(err, req, reply, 'dashboard request failed');
}
