import type { FastifyInstance } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { setSignInPolicy, signInPolicy } from '../../domain/sso/sso-domains.js';
import { sessionGuard, sessionOf } from './guard.js';
import { jsonObject } from './json-input.js';

// Settings → Security (issue 39): the account's claimed e-mail domains (read only: the operator
// claims them), `sso_required` and `require_2fa`.

export function registerSignInPolicyApi(api: FastifyInstance, deps: DomainDeps): void {
  const guard = sessionGuard(deps);
  api.get('/settings/sign-in', { onRequest: guard }, async (req) => signInPolicy(deps, sessionOf(req).accountId));
  api.put('/settings/sign-in', { onRequest: guard }, async (req) => {
    const body = jsonObject(req, ['sso_required', 'require_2fa']);
    return setSignInPolicy(deps, sessionOf(req).accountId, { sso_required: body['sso_required'], require_2fa: body['require_2fa'] });
  });
}
