import type { FastifyReply } from 'fastify';
import type { Json } from '../domain/json.js';

/** Sends a body the domain already serialised, skipping Fastify's JSON.stringify. */
export function sendJson<T>(reply: FastifyReply, body: Json<T>, status = 200): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body.json);
}
