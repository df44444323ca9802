import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { requestAccessEmail, resetPassword } from '../../domain/users/access-emails.js';
import { logIn } from '../../domain/users/log-in.js';
import { acceptInvitation, lookupInvitation } from '../../domain/users/invitations.js';
import { logInWithLink, setPassword } from '../../domain/users/manage-users.js';
import { endSession } from '../../domain/users/sessions.js';
import { signUp } from '../../domain/users/sign-up.js';
import { clientIp } from './actor.js';
import { assertSameOrigin, sessionGuard, sessionGuardAt, sessionOf } from './guard.js';
import { jsonObject } from './json-input.js';
import { clearSessionCookie } from './session-cookie.js';
import { sendStarted, type Started } from './start-session.js';

// Sign-up, sign-in (password or one-time link), the current session, sign-out and password setting;
// e-mailed sign-in and reset links (issue 37). Every sign-in mints a new session token (a token the
// browser brought is never adopted) and ends the session the browser held before, if any. A user with
// two-factor sign-in gets a half-signed-in session first (api-two-factor.ts finishes it).

export function registerSessionApi(api: FastifyInstance, deps: DomainDeps): void {
  const guard = sessionGuard(deps);
  const secure = deps.baseUrl.startsWith('https:');
  const started = (req: FastifyRequest, reply: FastifyReply, s: Started, status = 200) => sendStarted(deps, req, reply, s, status);

  api.post('/signup', async (req, reply) => {
    assertSameOrigin(req, deps.baseUrl);
    const body = jsonObject(req, ['account_name', 'email', 'password']);
    return started(req, reply, await signUp(deps, { account_name: body['account_name'], email: body['email'], password: body['password'], ip: clientIp(req) }), 201);
  });

  api.post('/login', async (req, reply) => {
    assertSameOrigin(req, deps.baseUrl);
    const body = jsonObject(req, ['email', 'password']);
    return started(req, reply, await logIn(deps, { email: body['email'], password: body['password'], ip: clientIp(req) }));
  });

  api.post('/login-link', async (req, reply) => {
    assertSameOrigin(req, deps.baseUrl);
    const body = jsonObject(req, ['token']);
    return started(req, reply, await logInWithLink(deps, body['token'], clientIp(req)));
  });

  // "E-mail me a sign-in link" and "Forgot password?": 202 and the same answer for any address.
  api.post('/access-email', async (req, reply) => {
    assertSameOrigin(req, deps.baseUrl);
    const body = jsonObject(req, ['email', 'purpose']);
    return reply.code(202).send(await requestAccessEmail(deps, { email: body['email'], purpose: body['purpose'], ip: clientIp(req) }));
  });

  api.post('/password-reset', async (req, reply) => {
    assertSameOrigin(req, deps.baseUrl);
    const body = jsonObject(req, ['token', 'new_password']);
    return started(req, reply, await resetPassword(deps, { token: body['token'], new_password: body['new_password'], ip: clientIp(req) }));
  });

  // An invitation to join an account (issue 39): what it is, then joining with a new password.
  api.post('/invitation/lookup', async (req) => {
    assertSameOrigin(req, deps.baseUrl);
    return lookupInvitation(deps, jsonObject(req, ['token'])['token']);
  });

  api.post('/invitation/accept', async (req, reply) => {
    assertSameOrigin(req, deps.baseUrl);
    const body = jsonObject(req, ['token', 'password']);
    return started(req, reply, await acceptInvitation(deps, { token: body['token'], password: body['password'], ip: clientIp(req) }), 201);
  });

  api.get('/session', { onRequest: guard }, async (req) => sessionOf(req).view);

  // A half-signed-in session may sign out too ("Cancel" on the code step).
  api.post('/logout', { onRequest: sessionGuardAt(deps, [null, 'code', 'enrol']) }, async (req, reply) => {
    await endSession(deps, sessionOf(req));
    clearSessionCookie(reply, secure);
    return reply.code(204).send();
  });

  api.post('/password', { onRequest: guard }, async (req, reply) => {
    const body = jsonObject(req, ['current_password', 'new_password']);
    return started(req, reply, await setPassword(deps, sessionOf(req), { current_password: body['current_password'], new_password: body['new_password'], ip: clientIp(req) }));
  });
}
