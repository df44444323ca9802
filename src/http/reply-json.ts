import type { FastifyReply } from 'fastify';
import type { Json } from '../domain/json.js';

/**
 * Sends a body the domain already serialised, skipping Fastify's JSON.stringify. As a Buffer: a string
 * body would be measured in UTF-8 for Content-Length and then encoded again when written.
 */
export function sendJson<T>(reply: FastifyReply, body: Json<T>, status = 200): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(Buffer.from(body.json));
}
