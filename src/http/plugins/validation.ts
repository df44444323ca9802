import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { resolveRef, type OpenApiDocument, type OpenApiOperation, type OpenApiParameter } from '../openapi.js';
import { absolutize, createValidators } from '../validation.js';

export interface RouteSchemas {
  body?: Record<string, unknown>;
  querystring?: Record<string, unknown>;
}

/** Bodies and query strings are validated with the document's own schemas (Ajv 2020). */
export function installValidators(app: FastifyInstance, doc: OpenApiDocument): void {
  const v = createValidators(doc);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? v.body : v.query;
    return ajv.compile(schema) as ReturnType<typeof ajv.compile>;
  });
}

export function schemasFor(doc: OpenApiDocument, op: OpenApiOperation): RouteSchemas {
  const out: RouteSchemas = {};
  const query = (op.parameters ?? []).map((p) => resolveRef<OpenApiParameter>(doc, p)).filter((p) => p.in === 'query');
  // Always a schema, even with no parameters: an unknown query parameter is refused, not ignored.
  out.querystring = absolutize({
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(query.map((p) => [p.name, p.schema ?? {}])),
    required: query.filter((p) => p.required).map((p) => p.name),
  });
  const json = op.requestBody?.content['application/json']?.schema;
  if (json) out.body = absolutize(json);
  return out;
}

/**
 * JSON operations accept only JSON: another media type is 415, not an empty body. A missing body is
 * treated as `{}`, so the answer names the missing required parameter instead of "body must be object".
 */
export async function requireJsonBody(req: FastifyRequest): Promise<void> {
  const type = req.headers['content-type'];
  if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) {
    throw new AppError('unsupported_media_type', 'Send the request body as JSON with `Content-Type: application/json`.');
  }
  if (req.body === undefined || req.body === null) req.body = {};
}
