import type { FastifyInstance } from 'fastify';

// Service-Request-Id on EVERY response: set first thing on the request, and once more just before
// sending for replies produced by paths that skipped the hooks (framework errors).
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    reply.header('Service-Request-Id', req.id);
  });
  app.addHook('onSend', async (req, reply) => {
    if (!reply.hasHeader('Service-Request-Id')) reply.header('Service-Request-Id', req.id);
  });
}
