import type { FastifyInstance } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import type { Authenticator } from '../../domain/keys/authenticate.js';
import { createAccountKey, listAccountKeys, revokeAccountKey } from '../../domain/users/account-keys.js';
import { actorOf } from './actor.js';
import { sessionGuard, sessionOf } from './guard.js';
import { jsonObject } from './json-input.js';

// The developers area: the signed-in account's API keys (both modes), made, listed and revoked; each
// shows who made it and when it was last used, and making or revoking one goes in the activity log.

export function registerKeysApi(api: FastifyInstance, deps: DomainDeps, authenticator: Authenticator): void {
  const guard = sessionGuard(deps);

  api.get('/keys', { onRequest: guard }, async (req) => ({ object: 'list', data: await listAccountKeys(deps, sessionOf(req).accountId), has_more: false }));

  api.post('/keys', { onRequest: guard }, async (req, reply) => {
    const body = jsonObject(req, ['label', 'mode']);
    return reply.code(201).send(await createAccountKey(deps, sessionOf(req).accountId, actorOf(req), { label: body['label'], mode: body['mode'] }));
  });

  api.post<{ Params: { key_id: string } }>('/keys/:key_id/revoke', { onRequest: guard }, async (req) => {
    const key = await revokeAccountKey(deps, sessionOf(req).accountId, actorOf(req), req.params.key_id);
    // This process stops accepting the key at once; other instances within the auth cache's lifetime.
    authenticator.invalidate();
    return key;
  });
}
