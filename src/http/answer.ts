import type { FastifyReply } from 'fastify';
import type { StoredAnswer } from '../domain/idempotency/idempotency-slot.js';
import type { Json } from '../domain/json.js';

/** An answer as a write route makes it: built inside its transaction, so that it can be stored there. */
export type Answer = StoredAnswer;

const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON answer whose body the domain already serialised. Headers given as undefined are left out. */
export function jsonAnswer(status: number, body: Json<unknown>, headers: Record<string, string | undefined> = {}): Answer {
  return { status, headers: withType(headers), body: body.json };
}

/** A JSON answer of a plain value, serialised as Fastify would have (JSON.stringify). */
export function valueAnswer(status: number, body: object, headers: Record<string, string | undefined> = {}): Answer {
  return { status, headers: withType(headers), body: JSON.stringify(body) };
}

function withType(headers: Record<string, string | undefined>): Record<string, string> {
  const kept: Record<string, string> = { 'content-type': JSON_TYPE };
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) kept[name.toLowerCase()] = value;
  return kept;
}

/** Sends an answer byte for byte; a replay says so (`Idempotent-Replayed: true`, as Stripe does). */
export function sendAnswer(reply: FastifyReply, a: Answer, replayed = false): FastifyReply {
  reply.code(a.status);
  for (const [name, value] of Object.entries(a.headers)) reply.header(name, value);
  if (replayed) reply.header('Idempotent-Replayed', 'true');
  // As a Buffer: a string body would be measured for Content-Length and encoded again when written.
  return reply.send(Buffer.from(a.body));
}
