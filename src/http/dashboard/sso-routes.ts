import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { AppError } from '../../domain/errors.js';
import { finishSsoSignIn, SSO_FLOW_MINUTES, startSsoSignIn } from '../../domain/sso/sso-sign-in.js';
import { SSO_CALLBACK_PATH } from '../../lib/sso-paths.js';
import { readCookie } from '../cookies.js';
import { html } from '../pages/html.js';
import { layout } from '../pages/layout.js';
import { sendPage } from '../pages/send-page.js';
import { assertSameOrigin } from './guard.js';
import { jsonObject } from './json-input.js';
import { clientIp } from './actor.js';
import { replaceSession } from './start-session.js';

// Single sign-on (issue 39 item 3). The sign-in page asks POST /dashboard/api/sso/start for the
// provider's address (the attempt's token goes into a cookie only /dashboard/sso reads, HttpOnly and
// SameSite=Lax: the provider's redirect back is a top-level GET, which carries it), then the browser
// goes there; the provider sends it back to the callback, which answers with the dashboard (303 and
// the session cookie) or a page saying what went wrong.

const FLOW_COOKIE = 'formsign_sso';
const FLOW_PATH = '/dashboard/sso';

export function registerSsoStart(api: FastifyInstance, deps: DomainDeps): void {
  api.post('/sso/start', async (req, reply) => {
    assertSameOrigin(req, deps.baseUrl);
    const body = req.body === undefined || req.body === null ? {} : jsonObject(req, ['email']);
    const started = await startSsoSignIn(deps, { email: body['email'] });
    reply.header('Set-Cookie', `${FLOW_COOKIE}=${started.flowToken}; Path=${FLOW_PATH}; Max-Age=${SSO_FLOW_MINUTES * 60}; HttpOnly; SameSite=Lax${secure(deps) ? '; Secure' : ''}`);
    return { object: 'sso_redirect', url: started.url, expires_at: started.expiresAt };
  });
}

export function registerSsoCallback(app: FastifyInstance, deps: DomainDeps): void {
  app.get(SSO_CALLBACK_PATH, async (req, reply) => {
    // The attempt is spent whatever happens next, so its cookie goes (after the session's, if any).
    const dropFlowCookie = () => reply.header('Set-Cookie', `${FLOW_COOKIE}=; Path=${FLOW_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure(deps) ? '; Secure' : ''}`);
    try {
      const callbackUrl = new URL(req.url, deps.baseUrl);
      const started = await finishSsoSignIn(deps, { flowToken: readCookie(req, FLOW_COOKIE), callbackUrl, ip: clientIp(req) });
      await replaceSession(deps, req, reply, started);
      dropFlowCookie();
      return reply.code(303).header('Cache-Control', 'no-store').header('Location', '/dashboard/templates').send();
    } catch (err) {
      dropFlowCookie();
      if (err instanceof AppError) return failurePage(req, reply, err);
      throw err;
    }
  });
}

const secure = (deps: DomainDeps) => deps.baseUrl.startsWith('https:');

/** A page, not JSON: the browser arrived here by the provider's redirect, not by the dashboard's script. */
function failurePage(req: FastifyRequest, reply: FastifyReply, err: AppError): FastifyReply {
  const main = html`<section class="error-page">
<p class="status">${err.status}</p>
<h1>Single sign-on did not sign you in</h1>
<p class="lead">${err.message}</p>
<div class="actions"><a class="button" href="/dashboard/login">Back to sign-in</a></div>
<p class="request-id">Request id: <code>${req.id}</code> (code <code>${err.code}</code>) — quote it when asking for help.</p>
</section>`;
  return sendPage(reply, layout({ title: 'Single sign-on failed · Formsign', main, current: '/dashboard' }), { status: err.status });
}
