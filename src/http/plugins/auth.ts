import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Authenticated, Authenticator } from '../../domain/keys/authenticate.js';

/**
 * onRequest hook: runs before the body is read, so an unauthenticated upload costs nothing. A cached
 * key is answered synchronously: no promise per request on the hot path.
 */
export function authHook(authenticator: Authenticator) {
  return (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const result = authenticator.authenticate(req.headers.authorization);
    if (result instanceof Promise) result.then((a) => admitted(req, done, a), (err: Error) => done(err));
    else admitted(req, done, result);
  };
}

function admitted(req: FastifyRequest, done: HookHandlerDoneFunction, a: Authenticated): void {
  req.partition = { accountId: a.accountId, mode: a.mode };
  done();
}
