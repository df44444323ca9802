import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { AppError } from './domain/errors.js';
import { registerDashboard } from './http/dashboard/index.js';
import { toAppError } from './http/error-body.js';
import { errorHandler, sendError } from './http/error-handler.js';
import { listOperations, type OpenApiOperation } from './http/openapi.js';
import { guardSigningRoutes, registerPages, withRedactedRequests } from './http/pages/index.js';
import { AccessLog } from './http/plugins/access-log.js';
import { authHook } from './http/plugins/auth.js';
import { answerConnect, clientErrorHandler } from './http/plugins/client-error.js';
import { installDraining } from './http/plugins/draining.js';
import { claimIdempotencyKey, hashRequestBody, storeUnwrittenAnswer } from './http/plugins/idempotency.js';
import { installJsonParser } from './http/plugins/json-body.js';
import { registerMetricsRoute } from './http/plugins/metrics.js';
import { addressWindow, rateLimitHook } from './http/plugins/rate-limit.js';
import { registerRequestId } from './http/plugins/request-id.js';
import { acceptUploads, JSON_BODY_LIMIT, UPLOAD_BODY_LIMIT } from './http/plugins/uploads.js';
import { DEFAULT_HTTP_LIMITS, installSlowClientLimits, serverLimitOptions, type HttpLimits } from './http/plugins/slow-clients.js';
import { acceptedMediaTypes, installValidators, refuseBody, requireJsonBody, requireMediaType, schemasFor } from './http/plugins/validation.js';
import { ROUTES } from './http/routes/index.js';
import { assertPostIsWriteRoute } from './http/routes/route.js';
import type { HttpServices } from './http/services.js';
import { newRequestId } from './lib/ids.js';
import { isStorageFull } from './lib/storage-health.js';

/**
 * Builds the HTTP app from the contract: every operation of openapi.yaml that is not `x-status:
 * planned` gets its route, schemas and auth from the document; a mismatch stops the start.
 */
export async function buildApp(s: HttpServices, opts: { logger: FastifyServerOptions['logger']; limits?: Partial<HttpLimits>; serverFactory?: FastifyServerOptions['serverFactory'] }): Promise<FastifyInstance> {
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...opts.limits };
  const app = Fastify({
    // Signing links carry their credential in the path: request lines log it redacted (pages/sign).
    logger: withRedactedRequests(opts.logger),
    // `formsign serve` listens before start-up is done and hands its server over (cli/start-gate.ts).
    ...(opts.serverFactory ? { serverFactory: opts.serverFactory } : {}),
    ...serverLimitOptions(limits),
    // Requests Node's parser refuses (431, malformed) still get a request id and the contract's body.
    clientErrorHandler,
    genReqId: () => newRequestId(),
    requestIdHeader: false,
    // One access-log line per request, carrying the same id as the Service-Request-Id header; the same
    // callback feeds /metrics.
    logController: new AccessLog(s.metrics),
    bodyLimit: JSON_BODY_LIMIT,
    // Behind a reverse proxy, req.ip is the client the proxy names, not the proxy (TRUST_PROXY).
    trustProxy: typeof s.trustProxy === 'object' ? [...s.trustProxy] : (s.trustProxy ?? false),
    // Requests during shutdown get the contract's 503 from installDraining instead of Fastify's own.
    return503OnClosing: false,
    frameworkErrors: (err, req, reply) => {
      reply.header('Service-Request-Id', req.id);
      return errorHandler(err, req, reply);
    },
  });
  // First: every signing-link route registered after this must pass the signer gate (issue 38).
  guardSigningRoutes(app);
  registerRequestId(app);
  answerConnect(app);
  installDraining(app);
  installSlowClientLimits(app, limits);
  installValidators(app, s.openapi);
  // A write refused for lack of disk space: counted, and /readyz reports it until space returns.
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (isStorageFull(err)) {
      s.metrics?.storageFull();
      s.storage?.noteFull();
    }
    return errorHandler(err, req, reply);
  });
  // text/plain is Fastify's default second parser; the API speaks JSON (and multipart for uploads) only.
  app.removeContentTypeParser('text/plain');
  installJsonParser(app);

  const byId = new Map(ROUTES.map((r) => [r.operationId, r]));
  const known: Array<{ method: string; pattern: RegExp }> = [];
  // Limits run after the key is known; their headers stay on every answer of an authenticated route.
  const onLimited = (reason: 'rate_limited' | 'monthly_quota_exceeded') => s.metrics?.limited(reason);
  // What reaches no account (a refused key, an unknown route or method) counts in a per-address window.
  const byAddress = s.limits ? addressWindow(s.limits, onLimited) : undefined;
  const auth = authHook(s.authenticator, byAddress);
  const authenticated = (route: string) => (s.limits ? [auth, rateLimitHook(s.limits, route, onLimited)] : auth);
  const uploads: RouteOptions[] = [];
  for (const entry of listOperations(s.openapi)) {
    if (entry.planned) continue;
    const def = byId.get(entry.operation.operationId);
    if (!def) throw new Error(`openapi.yaml operation ${entry.operation.operationId} (${entry.method} ${entry.path}) has no route`);
    byId.delete(entry.operation.operationId);
    const isPublic = Array.isArray(entry.operation.security) && entry.operation.security.length === 0;
    if (def.public !== isPublic) throw new Error(`route ${def.operationId} is defined as ${def.public ? 'public' : 'authenticated'} but openapi.yaml says it ${isPublic ? 'needs no key' : 'needs a key'}`);
    assertPostIsWriteRoute(def, entry.method, isPublic);
    const schemas = schemasFor(s.openapi, entry.operation, s.openapi.paths[entry.path]?.['parameters'] as OpenApiOperation['parameters']);
    const mediaTypes = acceptedMediaTypes(entry.operation);
    // Every authenticated POST takes an Idempotency-Key (issue 26): by method here, so no route can miss it.
    const idempotent = !isPublic && entry.method === 'POST';
    const preParsing = [...(mediaTypes.length > 0 ? [requireMediaType(mediaTypes)] : []), ...(idempotent ? [hashRequestBody] : [])];
    const route: RouteOptions = {
      method: entry.method as 'GET',
      url: entry.route,
      schema: schemas,
      ...(isPublic ? {} : { onRequest: authenticated(entry.route) }),
      ...(preParsing.length > 0 ? { preParsing } : {}),
      ...(idempotent ? { preHandler: claimIdempotencyKey({ domain: s.domain, limits: s.limits, route: entry.route }), onSend: storeUnwrittenAnswer } : {}),
      ...(schemas.body && !def.multipart ? { preValidation: requireJsonBody } : {}),
      ...(!schemas.body && !def.multipart && entry.method !== 'GET' && entry.method !== 'HEAD' ? { preValidation: refuseBody } : {}),
      // The multipart plugin enforces the 20 MiB file cap itself and answers 413 past it.
      ...(def.multipart ? { bodyLimit: UPLOAD_BODY_LIMIT } : {}),
      handler: def.handler(s),
    };
    if (def.multipart) uploads.push(route);
    else app.route(route);
    known.push({ method: entry.method, pattern: new RegExp(`^${entry.route.replace(/:[^/]+/g, '[^/]+')}$`) });
  }
  // Uploads get the multipart parser in a scope of their own (see acceptUploads).
  await app.register(async (scope) => {
    await acceptUploads(scope);
    for (const route of uploads) scope.route(route);
  });
  if (byId.size > 0) throw new Error(`routes without an operation in openapi.yaml: ${[...byId.keys()].join(', ')}`);
  registerPages(app, s.openapi, s.domain);
  await registerDashboard(app, s, { uploadBodyLimit: UPLOAD_BODY_LIMIT });
  if (s.metrics) registerMetricsRoute(app, s.metrics, s.metricsToken);

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const allowed = known.filter((k) => k.pattern.test(path)).map((k) => k.method);
    let err: AppError;
    if (allowed.length > 0) {
      if (allowed.includes('GET')) allowed.push('HEAD');
      err = new AppError('method_not_allowed', `${req.method} is not allowed on ${path}. Allowed: ${allowed.join(', ')}.`, undefined, { Allow: allowed.join(', ') });
    } else {
      err = new AppError('route_not_found', `No route ${req.method} ${path}. The operations are listed in GET /api/v1/openapi.yaml.`);
    }
    // The API's every answer carries the window that guards it: here, the per-address one.
    if (byAddress && path.startsWith('/api/')) return sendError(reply, toAppError(await byAddress(req, reply, err)));
    return sendError(reply, err);
  });
  return app;
}
