import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Json } from '../../domain/json.js';
import { sendJson } from '../reply-json.js';

/**
 * Live status by polling with ETags (issue 24): the dashboard asks again every few seconds; the
 * browser's cache keeps the answer (`private, no-cache`: kept, but always checked back) and sends its
 * ETag, and the server answers 304 with no body while nothing changed. Chosen over server-sent events
 * because a change can come from any process (a signer on another instance, the job worker), and the
 * database is the one place that sees them all: polling reads it, while SSE would need a
 * cross-process notification for every state change, and one open connection per tab.
 */
export function sendJsonWithEtag<T>(req: FastifyRequest, reply: FastifyReply, body: Json<T>): FastifyReply {
  const etag = `"${createHash('sha256').update(body.json).digest('base64url').slice(0, 32)}"`;
  reply.header('ETag', etag).header('Cache-Control', 'private, no-cache');
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  return sendJson(reply, body);
}
