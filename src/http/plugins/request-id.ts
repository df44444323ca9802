import type { FastifyInstance } from 'fastify';

// Service-Request-Id on EVERY response: set first thing on the request (404/405 handlers and body
// errors run after this hook; failures before routing go through frameworkErrors in app.ts, which sets
// it too). Callback style: an async hook would cost a promise per request on the hot path.
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('Service-Request-Id', req.id);
    done();
  });
}
