import multipart from '@fastify/multipart';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { AppError } from './domain/errors.js';
import { errorHandler, sendError } from './http/error-handler.js';
import { listOperations } from './http/openapi.js';
import { authHook } from './http/plugins/auth.js';
import { installJsonParser } from './http/plugins/json-body.js';
import { registerRequestId } from './http/plugins/request-id.js';
import { installValidators, requireJsonBody, schemasFor } from './http/plugins/validation.js';
import { ROUTES } from './http/routes/index.js';
import type { HttpServices } from './http/services.js';
import { newRequestId } from './lib/ids.js';

export const JSON_BODY_LIMIT = 1024 * 1024;
export const PDF_UPLOAD_LIMIT = 20 * 1024 * 1024;

/**
 * Builds the HTTP app from the contract: every operation of openapi.yaml that is not `x-status:
 * planned` gets its route, schemas and auth from the document; a mismatch stops the start.
 */
export async function buildApp(s: HttpServices, opts: { logger: FastifyServerOptions['logger'] }): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    genReqId: () => newRequestId(),
    requestIdHeader: false,
    // Every request log line carries the same id as the Service-Request-Id header.
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit: JSON_BODY_LIMIT,
    return503OnClosing: true,
    frameworkErrors: (err, req, reply) => {
      reply.header('Service-Request-Id', req.id);
      return errorHandler(err, req, reply);
    },
  });
  registerRequestId(app);
  installValidators(app, s.openapi);
  app.setErrorHandler(errorHandler);
  // text/plain is Fastify's default second parser; the API speaks JSON (and multipart for uploads) only.
  app.removeContentTypeParser('text/plain');
  installJsonParser(app);
  await app.register(multipart, { limits: { fileSize: PDF_UPLOAD_LIMIT, files: 1, fields: 10, fieldSize: JSON_BODY_LIMIT, parts: 12 } });

  const byId = new Map(ROUTES.map((r) => [r.operationId, r]));
  const known: Array<{ method: string; pattern: RegExp }> = [];
  const auth = authHook(s.authenticator);
  for (const entry of listOperations(s.openapi)) {
    if (entry.planned) continue;
    const def = byId.get(entry.operation.operationId);
    if (!def) throw new Error(`openapi.yaml operation ${entry.operation.operationId} (${entry.method} ${entry.path}) has no route`);
    byId.delete(entry.operation.operationId);
    const isPublic = Array.isArray(entry.operation.security) && entry.operation.security.length === 0;
    const schemas = schemasFor(s.openapi, entry.operation);
    app.route({
      method: entry.method as 'GET',
      url: entry.route,
      schema: schemas,
      ...(isPublic ? {} : { onRequest: auth }),
      ...(schemas.body && !def.multipart ? { preValidation: requireJsonBody } : {}),
      // The multipart plugin enforces the 20 MiB file cap itself and answers 413 past it.
      ...(def.multipart ? { bodyLimit: PDF_UPLOAD_LIMIT + JSON_BODY_LIMIT } : {}),
      handler: def.handler(s),
    });
    known.push({ method: entry.method, pattern: new RegExp(`^${entry.route.replace(/:[^/]+/g, '[^/]+')}$`) });
  }
  if (byId.size > 0) throw new Error(`routes without an operation in openapi.yaml: ${[...byId.keys()].join(', ')}`);

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const allowed = known.filter((k) => k.pattern.test(path)).map((k) => k.method);
    if (allowed.length > 0) {
      if (allowed.includes('GET')) allowed.push('HEAD');
      return sendError(reply, new AppError('method_not_allowed', `${req.method} is not allowed on ${path}. Allowed: ${allowed.join(', ')}.`, undefined, { Allow: allowed.join(', ') }));
    }
    return sendError(reply, new AppError('route_not_found', `No route ${req.method} ${path}. The operations are listed in GET /api/v1/openapi.yaml.`));
  });
  return app;
}
