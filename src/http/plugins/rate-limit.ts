import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Limits, LimitVerdict } from '../../domain/limits/limits.js';

/**
 * onRequest hook, after the auth hook on key-authenticated routes: the window and the monthly quota,
 * and their headers on every authenticated response (a later 400 or 404 keeps them; a refused key
 * never reaches this hook, so a 401 carries none). Callback style, synchronous with the in-process
 * window: no promise per request on the hot path. One hook per route, so the route template is known
 * without asking Fastify (whose `routeOptions` builds an object per call).
 */
export function rateLimitHook(limits: Limits, route: string, onLimited: (reason: NonNullable<LimitVerdict['reason']>) => void) {
  return (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const p = req.partition;
    if (!p) return done();
    let verdict: LimitVerdict | Promise<LimitVerdict>;
    try {
      verdict = limits.check(p.accountId, req.method, route);
    } catch (err) {
      return done(err as Error);
    }
    if (verdict instanceof Promise) verdict.then((v) => apply(reply, done, onLimited, v), (err: Error) => done(err));
    else apply(reply, done, onLimited, verdict);
  };
}

function apply(reply: FastifyReply, done: HookHandlerDoneFunction, onLimited: (reason: NonNullable<LimitVerdict['reason']>) => void, v: LimitVerdict): void {
  for (const name in v.headers) reply.header(name, v.headers[name]);
  if (v.refusal) {
    onLimited(v.reason!);
    return done(v.refusal);
  }
  done();
}

/**
 * For a request that reached no account — a refused key (401, 402), a route or method that does not
 * exist (404 route_not_found, 405) — the per-address window (`Limits.checkAddress`): its headers go on
 * the answer, and once it is full its 429 replaces the answer. A failing window store leaves the
 * answer as it was: refusing a request because the limiter broke would help no one.
 */
export function addressWindow(limits: Limits, onLimited: (reason: NonNullable<LimitVerdict['reason']>) => void) {
  return (req: FastifyRequest, reply: FastifyReply, err: Error): Error | Promise<Error> => {
    const finish = (v: LimitVerdict): Error => {
      for (const name in v.headers) reply.header(name, v.headers[name]);
      if (!v.refusal) return err;
      onLimited(v.reason!);
      return v.refusal;
    };
    let verdict: LimitVerdict | Promise<LimitVerdict>;
    try {
      verdict = limits.checkAddress(req.ip);
    } catch {
      return err;
    }
    return verdict instanceof Promise ? verdict.then(finish, () => err) : finish(verdict);
  };
}
