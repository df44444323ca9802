import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { AppError } from '../../domain/errors.js';
import { checkCsrf, requireSession, requireSessionAt, rotateSession, type PendingStep, type Session } from '../../domain/users/sessions.js';
import { sendJsonError } from '../error-body.js';
import { assertAllowed } from './permissions.js';
import { readSessionCookie, setSessionCookie } from './session-cookie.js';

// Every dashboard API call but sign-up and sign-in needs a live session; every state-changing one
// also needs the session's CSRF token in a header (a cross-site page can neither read the token nor
// set a custom header without a CORS preflight, which is never granted). Then the member's role must
// allow the route (permissions.ts, the one table), read fresh with the session on every request, so
// a role change or a removal counts at the member's next request, from any open tab.

export const CSRF_HEADER = 'x-csrf-token';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

const sessions = new WeakMap<FastifyRequest, Session>();
const guards = new WeakSet<object>();

export function sessionGuard(deps: DomainDeps) {
  return guardWith(deps, (token) => requireSession(deps, token));
}

/**
 * The two-factor routes' guard: also lets through a half-signed-in session at one of `steps` (null: a
 * full session), checked the same way; every other route's guard refuses such a session.
 */
export function sessionGuardAt(deps: DomainDeps, steps: ReadonlyArray<PendingStep | null>) {
  return guardWith(deps, (token) => requireSessionAt(deps, token, steps));
}

function guardWith(deps: DomainDeps, find: (cookieToken: string | undefined) => Promise<Session>) {
  const secure = deps.baseUrl.startsWith('https:');
  const guard = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const session = await find(readSessionCookie(req));
    if (!SAFE.has(req.method)) checkCsrf(session, headerValue(req, CSRF_HEADER));
    assertAllowed(session.role, req.method, req.routeOptions.url ?? req.url);
    // Issued under another role (changed since): a new session id before anything else happens.
    if (session.issuedRole !== session.role) {
      const rotated = await rotateSession(deps, session);
      if (rotated) setSessionCookie(reply, rotated, session.view.expires_at, secure);
    }
    sessions.set(req, session);
  };
  guards.add(guard);
  return guard;
}

/** Whether a route's onRequest hooks include a session guard (index.ts refuses a role route without). */
export function hasSessionGuard(hooks: unknown): boolean {
  const list: unknown[] = Array.isArray(hooks) ? hooks : [hooks];
  return list.some((h) => typeof h === 'function' && guards.has(h));
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
