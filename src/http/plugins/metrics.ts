import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Metrics } from '../../lib/metrics.js';
import { sendError } from '../error-handler.js';

/**
 * `GET /metrics`: Prometheus text, beside the API (not in openapi.yaml, not counted or limited).
 * With METRICS_TOKEN set it needs `Authorization: Bearer <token>`; otherwise it is open on the
 * listening address, which is the operator's to restrict.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  const expected = token === undefined ? undefined : Buffer.from(sha256Hex(token), 'hex');
  app.get('/metrics', async (req, reply) => {
    if (expected) {
      const given = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
      // Digests compared in constant time: the length of the token is not given away either.
      if (given === undefined || !timingSafeEqual(Buffer.from(sha256Hex(given), 'hex'), expected)) {
        return sendError(reply.header('WWW-Authenticate', 'Bearer'), new AppError('api_key_invalid', '/metrics needs the METRICS_TOKEN as `Authorization: Bearer <token>`.'));
      }
    }
    const { contentType, body } = await metrics.render();
    return reply.type(contentType).header('Cache-Control', 'no-store').send(body);
  });
}
