import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie } from '../cookies.js';

// The session cookie: HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site posts),
// Secure when the public address is https, and scoped to /dashboard, the only place that reads it.

export const SESSION_COOKIE = 'formsign_session';
const PATH = '/dashboard';

export function readSessionCookie(req: FastifyRequest): string | undefined {
  return readCookie(req, SESSION_COOKIE);
}

export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: string, secure: boolean): void {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  reply.header('Set-Cookie', `${SESSION_COOKIE}=${token}; Path=${PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.header('Set-Cookie', `${SESSION_COOKIE}=; Path=${PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);
}
