import type { FastifyInstance } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { setSignInPolicy, signInPolicy } from '../../domain/sso/sso-domains.js';
import { settingsChange } from './actor.js';
import { sessionGuard, sessionOf } from './guard.js';
import { jsonObject } from './json-input.js';

// Settings → Sign-in policy (issue 39; admins and owners, the permission table): the account's
// claimed e-mail domains (read only: the operator claims them), `sso_required` and `require_2fa`.

export function registerSignInPolicyApi(api: FastifyInstance, deps: DomainDeps): void {
  const guard = sessionGuard(deps);
  api.get('/settings/sign-in', { onRequest: guard }, async (req) => signInPolicy(deps, sessionOf(req).accountId));
  api.put('/settings/sign-in', { onRequest: guard }, async (req) => {
    const body = jsonObject(req, ['sso_required', 'require_2fa']);
    // The change and its `settings.changed` entry in one transaction.
    return setSignInPolicy(settingsChange(deps, req, 'sign_in_policy', { ...flagOf(body, 'sso_required'), ...flagOf(body, 'require_2fa') }), sessionOf(req).accountId, { sso_required: body['sso_required'], require_2fa: body['require_2fa'] });
  });
}

/** A boolean the body set, for the log's detail (anything else is refused by the use case). */
function flagOf(body: Record<string, unknown>, key: string): Record<string, boolean> {
  const v = body[key];
  return typeof v === 'boolean' ? { [key]: v } : {};
}
