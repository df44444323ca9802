import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Authenticator } from '../../domain/keys/authenticate.js';

/** onRequest hook: runs before the body is read, so an unauthenticated upload costs nothing. */
export function authHook(authenticator: Authenticator) {
  return (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    authenticator.authenticate(req.headers.authorization).then(
      ({ accountId, mode }) => {
        req.partition = { accountId, mode };
        done();
      },
      (err: Error) => done(err),
    );
  };
}
