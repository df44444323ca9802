import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Metrics } from '../../lib/metrics.js';
import { redactSigningUrl } from '../pages/sign/redact-url.js';

/**
 * One access-log line per request (not Fastify's two), written when the response has finished:
 * request id (the logger's binding), method, route template, status, duration, bytes, and the account
 * and mode of a key-authenticated request. Never a header, a body or a query string; a path is logged
 * only when no route matched, with its credential segment redacted. The same moment feeds /metrics,
 * so a request costs one completion callback for both.
 */
export class AccessLog extends LogController {
  constructor(private readonly metrics: Metrics | undefined) {
    super({ requestIdLogLabel: 'request_id' });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    const route = req.routeOptions.url;
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    this.metrics?.observeRequest(req.method, route ?? 'unmatched', status, ms / 1000);
    const length = reply.getHeader('content-length');
    const p = req.partition;
    const line = {
      method: req.method,
      route: route ?? null,
      ...(route === undefined ? { path: redactSigningUrl((req.url.split('?')[0] ?? '').slice(0, 200)) } : {}),
      status,
      duration_ms: Math.round(ms * 100) / 100,
      bytes: length === undefined ? null : Number(length),
      account_id: p?.accountId ?? null,
      mode: p?.mode ?? null,
    };
    // The message stays Fastify's, so tools that wait for it keep working.
    if (error) reply.log.error({ ...line, err: error }, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
