import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Authenticated, Authenticator } from '../../domain/keys/authenticate.js';

/** What becomes of a refused key's error before it is answered (the per-address window: rate-limit.ts). */
export type OnRefused = (req: FastifyRequest, reply: FastifyReply, err: Error) => Error | Promise<Error>;

/**
 * onRequest hook: runs before the body is read, so an unauthenticated upload costs nothing. A cached
 * key is answered synchronously: no promise per request on the hot path.
 */
export function authHook(authenticator: Authenticator, onRefused?: OnRefused) {
  return (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const refuse = (err: Error): void => {
      if (!onRefused) return done(err);
      const out = onRefused(req, reply, err);
      if (out instanceof Promise) out.then(done, done);
      else done(out);
    };
    let result: Authenticated | Promise<Authenticated>;
    try {
      result = authenticator.authenticate(req.headers.authorization);
    } catch (err) {
      return refuse(err as Error);
    }
    if (result instanceof Promise) result.then((a) => admitted(req, done, a), refuse);
    else admitted(req, done, result);
  };
}

function admitted(req: FastifyRequest, done: HookHandlerDoneFunction, a: Authenticated): void {
  req.partition = { accountId: a.accountId, mode: a.mode };
  req.apiKeyId = a.keyId;
  done();
}
