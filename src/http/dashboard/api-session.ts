import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { logIn } from '../../domain/users/log-in.js';
import { logInWithLink, setPassword } from '../../domain/users/manage-users.js';
import { endSession, type StartedSession } from '../../domain/users/sessions.js';
import { signUp } from '../../domain/users/sign-up.js';
import { assertSameOrigin, sessionGuard, sessionOf } from './guard.js';
import { jsonObject } from './json-input.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';

// Sign-up, sign-in (password or one-time link), the current session, sign-out and password setting.

export function registerSessionApi(api: FastifyInstance, deps: DomainDeps): void {
  const guard = sessionGuard(deps);
  const secure = deps.baseUrl.startsWith('https:');
  const started = (reply: FastifyReply, s: StartedSession, status = 200) => {
    setSessionCookie(reply, s.token, s.view.expires_at, secure);
    return reply.code(status).send(s.view);
  };

  api.post('/signup', async (req, reply) => {
    assertSameOrigin(req, deps.baseUrl);
    const body = jsonObject(req, ['account_name', 'email', 'password']);
    return started(reply, await signUp(deps, { account_name: body['account_name'], email: body['email'], password: body['password'], ip: clientIp(req) }), 201);
  });

  api.post('/login', async (req, reply) => {
    assertSameOrigin(req, deps.baseUrl);
    const body = jsonObject(req, ['email', 'password']);
    return started(reply, await logIn(deps, { email: body['email'], password: body['password'], ip: clientIp(req) }));
  });

  api.post('/login-link', async (req, reply) => {
    assertSameOrigin(req, deps.baseUrl);
    const body = jsonObject(req, ['token']);
    return started(reply, await logInWithLink(deps, body['token']));
  });

  api.get('/session', { onRequest: guard }, async (req) => sessionOf(req).view);

  api.post('/logout', { onRequest: guard }, async (req, reply) => {
    await endSession(deps, sessionOf(req));
    clearSessionCookie(reply, secure);
    return reply.code(204).send();
  });

  api.post('/password', { onRequest: guard }, async (req, reply) => {
    const body = jsonObject(req, ['current_password', 'new_password']);
    return started(reply, await setPassword(deps, sessionOf(req), { current_password: body['current_password'], new_password: body['new_password'], ip: clientIp(req) }));
  });
}

/** The client's address: the peer's, or with TRUST_PROXY the one a trusted proxy forwarded. */
function clientIp(req: FastifyRequest): string | null {
  return req.ip || null;
}
