import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from '../domain/errors.js';
import { errorBody, toAppError } from './error-body.js';
import { logFailure } from './failure-log.js';
import { answersWithHtml, sendErrorPage } from './pages/index.js';

// The one place that answers an error: the contract's error body (error-body.ts), or, on page routes
// and for browsers, an HTML page with the same status, message and request id.

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  if (err.headers) reply.headers(err.headers);
  if (answersWithHtml(reply.request)) return sendErrorPage(reply, err);
  return reply.code(err.status).type('application/json; charset=utf-8').send(errorBody(err, reply.request.id));
}

export function errorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const app = toAppError(err);
  logFailure(req, err, app, 'request failed');
  return sendError(reply, app);
}
