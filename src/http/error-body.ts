import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../domain/errors.js';
import { isFileStoreUnavailable, isStorageFull } from '../lib/storage-health.js';
import { isDatabaseBusy, isDatabaseUnavailable } from './database-busy.js';
import { logFailure } from './failure-log.js';
import { NUL_MESSAGE, isUnstorableText } from './unstorable-text.js';
import type { ErrorObject } from './validation.js';

// The contract's error body, built from anything thrown: `toAppError` maps an error to its code,
// `errorBody` renders `{"error":{type,code,message,param,request_id}}`. It knows nothing of pages, so
// the page renderers (which answer their JSON calls with it) and the error handler (which chooses
// between it and an HTML page) both import it without importing each other.

/** Seconds a client should wait before retrying after a busy database. */
export const BUSY_RETRY_AFTER_S = 1;

export function errorBody(err: AppError, requestId: string): { error: Record<string, string> } {
  return {
    error: {
      type: err.type,
      code: err.code,
      message: err.message,
      ...(err.param !== undefined ? { param: err.param } : {}),
      request_id: requestId,
    },
  };
}

/** Answers with the JSON error body whatever the client accepts: for the JSON calls of pages and the dashboard. */
export function sendJsonError(err: Error, req: FastifyRequest, reply: FastifyReply, failure: string): FastifyReply {
  const app = toAppError(err);
  logFailure(req, err, app, failure);
  if (app.headers) reply.headers(app.headers);
  return reply.code(app.status).header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(errorBody(app, req.id));
}

/** A full disk lasts until an operator frees space: longer than a busy lock. */
const STORAGE_RETRY_AFTER_S = 30;
/** An unreachable S3 endpoint is usually a restart or a network blip: seconds, not an operator's fix. */
const FILE_STORE_RETRY_AFTER_S = 5;

export function toAppError(err: FastifyError | Error): AppError {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError & { validation?: ErrorObject[]; validationContext?: string };
  if (fe.validation && fe.validation.length > 0) return validationError(fe.validation[0]!, fe.validationContext ?? 'body');
  if (isStorageFull(err)) {
    return new AppError('storage_unavailable', `The server's storage is full (no space left on its disk), so nothing was saved and nothing changed. Try again in ${STORAGE_RETRY_AFTER_S} seconds; the operator has been told.`, undefined, { 'Retry-After': String(STORAGE_RETRY_AFTER_S) });
  }
  if (isFileStoreUnavailable(err)) {
    return new AppError('storage_unavailable', `The file store cannot be reached right now. Try again in ${FILE_STORE_RETRY_AFTER_S} seconds.`, undefined, { 'Retry-After': String(FILE_STORE_RETRY_AFTER_S) });
  }
  if (isDatabaseBusy(err)) {
    const what = isDatabaseUnavailable(err) ? 'The database is unavailable right now' : 'The database is busy';
    return new AppError('service_unavailable', `${what}. Try again in ${BUSY_RETRY_AFTER_S} second${BUSY_RETRY_AFTER_S === 1 ? '' : 's'}.`, undefined, { 'Retry-After': String(BUSY_RETRY_AFTER_S) });
  }
  if (isUnstorableText(err)) return new AppError('parameter_invalid', `A text value of the request ${NUL_MESSAGE}.`);
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError('payload_too_large', 'The request body is larger than this endpoint accepts (1 MiB for JSON, 20 MiB for PDF uploads).');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('unsupported_media_type', 'This endpoint does not accept that Content-Type.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('parameter_invalid', 'The Content-Length header does not match the body.');
    case 'FST_ERR_BAD_URL':
      return new AppError('route_not_found', 'The request path is not a valid URL.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // An id longer than any id names nothing; the path is not echoed back.
      return new AppError('resource_not_found', 'No object has an id that long (at most 100 characters).');
  }
  if (fe instanceof SyntaxError || (fe.statusCode === 400 && /JSON/i.test(fe.message))) {
    return new AppError('invalid_json', 'The request body is not valid JSON.');
  }
  if (fe.statusCode === 413) return new AppError('payload_too_large', 'The request body is too large.');
  if (fe.statusCode === 415) return new AppError('unsupported_media_type', 'This endpoint does not accept that Content-Type.');
  if (fe.statusCode !== undefined && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new AppError('parameter_invalid', fe.message);
  }
  return new AppError('internal_error', 'Something went wrong on our side. The request id identifies it in our logs.');
}

/** `/prefill/full_name` → `prefill.full_name`, the contract's `param` form. */
function toParam(pointer: string, extra?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  return parts.map((p, i) => (/^\d+$/.test(p) && i > 0 ? `[${p}]` : p)).join('.').replace(/\.\[/g, '[');
}

/** The contract's error for a schema violation (also a bulk send's row checked as a single call's body). */
export function validationError(e: ErrorObject, context: string): AppError {
  // Path parameters are ids, not pattern-checked: one that fails validation (a NUL in it) names nothing.
  if (context === 'params') return new AppError('resource_not_found', 'No object exists at this address.');
  const where = context === 'querystring' ? 'query parameter' : 'parameter';
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') {
    const param = toParam(e.instancePath, String(params['additionalProperty']));
    return new AppError('parameter_unknown', `Received unknown ${where} '${param}'.`, param);
  }
  if (e.keyword === 'required') {
    const param = toParam(e.instancePath, String(params['missingProperty']));
    return new AppError('parameter_missing', `Missing required ${where} '${param}'.`, param);
  }
  const param = toParam(e.instancePath);
  const problem = describe(e);
  if (param === '') return new AppError('parameter_invalid', `The request body ${problem}.`);
  return new AppError('parameter_invalid', `Invalid ${where} '${param}': ${problem}.`, param);
}

/** Ajv's message, made to name what would be accepted where Ajv's own does not. */
function describe(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'enum' && Array.isArray(params['allowedValues'])) return `must be one of ${(params['allowedValues'] as unknown[]).map(String).join(', ')}`;
  if (e.keyword === 'const') return `must be ${String(params['allowedValue'])}`;
  return e.message ?? 'is invalid';
}
