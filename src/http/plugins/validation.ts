import type { FastifyInstance, FastifyRequest, preParsingHookHandler } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { validationError } from '../error-body.js';
import { resolveRef, type OpenApiDocument, type OpenApiOperation, type OpenApiParameter } from '../openapi.js';
import { absolutize, createValidators, refusingNul, type Validators, type ValidateFunction } from '../validation.js';

export interface RouteSchemas {
  body?: Record<string, unknown>;
  querystring?: Record<string, unknown>;
  params?: Record<string, unknown>;
}

/**
 * Bodies, query strings and path parameters are validated with the document's own schemas (Ajv 2020),
 * and a NUL character in any string of them is refused first (see `refusingNul`).
 */
export function installValidators(app: FastifyInstance, doc: OpenApiDocument): void {
  const { validators: v, compiled } = compilerFor(doc);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const kind = httpPart === 'body' ? 'body' : 'query';
    const key = `${kind} ${JSON.stringify(schema)}`;
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = v[kind].compile(schema)));
    return refusingNul(validate) as ReturnType<typeof v.body.compile>;
  });
}

// Compiling the contract's schemas costs about a second of CPU. A process that builds the app more than
// once (the tests build one per case) compiles each schema once per version of the contract's
// components; Ajv itself caches only by schema object, and every build makes new ones.
const compilers = new Map<string, { validators: Validators; compiled: Map<string, ValidateFunction> }>();

function compilerFor(doc: OpenApiDocument): { validators: Validators; compiled: Map<string, ValidateFunction> } {
  const key = JSON.stringify(doc.components);
  let entry = compilers.get(key);
  if (!entry) {
    // One version at a time: a process that reloads a changed contract does not keep the old one.
    compilers.clear();
    compilers.set(key, (entry = { validators: createValidators(doc), compiled: new Map() }));
  }
  return entry;
}

function parametersIn(doc: OpenApiDocument, op: OpenApiOperation, pathParameters: OpenApiOperation['parameters'], where: 'query' | 'path'): OpenApiParameter[] {
  return [...(pathParameters ?? []), ...(op.parameters ?? [])].map((p) => resolveRef<OpenApiParameter>(doc, p)).filter((p) => p.in === where);
}

function objectSchema(params: OpenApiParameter[]): Record<string, unknown> {
  return absolutize({
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema ?? {}])),
    required: params.filter((p) => p.required).map((p) => p.name),
  });
}

/** `pathParameters`: those declared on the path item, shared by its operations. */
export function schemasFor(doc: OpenApiDocument, op: OpenApiOperation, pathParameters?: OpenApiOperation['parameters']): RouteSchemas {
  const out: RouteSchemas = {};
  // Always a schema, even with no parameters: an unknown query parameter is refused, not ignored.
  out.querystring = objectSchema(parametersIn(doc, op, pathParameters, 'query'));
  const path = parametersIn(doc, op, pathParameters, 'path');
  if (path.length > 0) out.params = objectSchema(path);
  const json = op.requestBody?.content['application/json']?.schema;
  // An operation that also takes another media type (a bulk send's CSV upload) validates only its JSON
  // bodies against the schema; its route reads the other kind itself.
  if (json) out.body = acceptedMediaTypes(op).length > 1 ? { content: { 'application/json': { schema: absolutize(json) } } } : absolutize(json);
  return out;
}

/**
 * A check of a value against one of the document's schemas as a request body, answering the
 * contract's error the body's validation would (a bulk send checks each row as `createForm`'s and
 * `sendForm`'s bodies: issue 42). Compiled once per process.
 */
export function bodySchemaCheck(doc: OpenApiDocument, schemaName: string): (value: unknown) => AppError | undefined {
  const { validators, compiled } = compilerFor(doc);
  const key = `component ${schemaName}`;
  let validate = compiled.get(key);
  if (!validate) compiled.set(key, (validate = validators.body.compile(absolutize({ $ref: `#/components/schemas/${schemaName}` }))));
  const check = refusingNul(validate);
  return (value) => {
    if (check(value)) return undefined;
    const first = check.errors?.[0];
    return first ? validationError(first, 'body') : new AppError('parameter_invalid', 'The row is invalid.');
  };
}

/** The media types an operation's request body may be sent as, from the document. */
export function acceptedMediaTypes(op: OpenApiOperation): string[] {
  return Object.keys(op.requestBody?.content ?? {});
}

function hasBody(req: FastifyRequest): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * preParsing hook: a body of another media type is refused before it is read, with a 415 that names
 * the type the endpoint accepts. A request without a body passes (JSON operations treat it as `{}`).
 */
export function requireMediaType(accepted: readonly string[]): preParsingHookHandler {
  const names = accepted.map((t) => `\`${t}\``).join(' or ');
  return (req, _reply, payload, done): void => {
    const type = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
    if (accepted.includes(type) || (type === '' && !hasBody(req))) return done(null, payload);
    const sent = type === '' ? 'without a Content-Type' : `as \`${type}\``;
    done(new AppError('unsupported_media_type', `This endpoint accepts request bodies sent as ${names} only; this one was sent ${sent}.`));
  };
}

/** A JSON operation called without a body is treated as `{}`, so the answer names the missing required parameter instead of "body must be object". */
export async function requireJsonBody(req: FastifyRequest): Promise<void> {
  if (req.body === undefined || req.body === null) req.body = {};
}

/**
 * preValidation hook of an operation whose contract has no request body (rotate-secret, a delivery's
 * retry, the DELETEs): a body is refused rather than ignored, as an unknown field is refused, so a
 * client that meant to send something learns that it does nothing. No body, or `{}` (what some SDKs
 * send with every POST), passes.
 */
export async function refuseBody(req: FastifyRequest): Promise<void> {
  const body: unknown = req.body;
  if (body === undefined || body === null) return;
  if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return;
  const first = typeof body === 'object' && !Array.isArray(body) ? Object.keys(body)[0] : undefined;
  throw new AppError('parameter_unknown', `${req.method} ${req.routeOptions.url ?? ''} takes no request body; send none (or {}).`, first);
}
