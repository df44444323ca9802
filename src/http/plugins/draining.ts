import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';

/**
 * While the server shuts down, requests that still arrive (on kept-alive or pipelined connections)
 * answer 503 service_unavailable with Retry-After, a request id and the contract's body: Fastify's
 * own `return503OnClosing` answer has neither, so it is switched off in app.ts.
 */
export function installDraining(app: FastifyInstance): void {
  let draining = false;
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  app.addHook('onRequest', (_req, _reply, done) => {
    if (!draining) return done();
    done(new AppError('service_unavailable', 'The server is shutting down. Retry in a moment.', undefined, { 'Retry-After': '1' }));
  });
}
