import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../../domain/keys/authenticate.js';

/** onRequest hook: runs before the body is read, so an unauthenticated upload costs nothing. */
export function authHook(authenticator: Authenticator) {
  return async (req: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const { keyId: _k, ...partition } = await authenticator.authenticate(req.headers.authorization);
    req.partition = partition;
  };
}
