import type { FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';

/** The JSON object body of a dashboard call; a field it does not know is refused, as in the API. */
export function jsonObject(req: FastifyRequest, known: readonly string[]): Record<string, unknown> {
  const body = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('invalid_json', 'The request body must be a JSON object.');
  const record = body as Record<string, unknown>;
  const extra = Object.keys(record).find((k) => !known.includes(k));
  if (extra !== undefined) throw new AppError('parameter_unknown', `Received unknown parameter '${extra}'.`, extra);
  return record;
}
