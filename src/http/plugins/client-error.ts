import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { newRequestId } from '../../lib/ids.js';
import { errorBody } from '../error-body.js';

/**
 * Writes a whole error response straight to the socket and closes it: for requests that never reach
 * Fastify (Node's parser refused them) or must be cut off mid-body. They still get a request id and
 * the contract's error body. `status` may differ from the code's usual one (431, 408).
 */
export function writeRawError(socket: Socket, status: number, err: AppError, requestId: string): void {
  if (socket.writable && !socketResponseStarted(socket)) {
    const body = JSON.stringify(errorBody(err, requestId));
    const extra = Object.entries(err.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\n` +
        `Service-Request-Id: ${requestId}\r\n` +
        extra +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}

function socketResponseStarted(socket: Socket): boolean {
  const current = (socket as Socket & { _httpMessage?: http.ServerResponse | null })._httpMessage;
  return current?.headersSent === true;
}

/** What Node's HTTP parser reports, as the contract's error (see `clientErrorHandler`). */
export function clientErrorAnswer(err: Error & { code?: string }): { status: number; error: AppError } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, error: new AppError('payload_too_large', 'The request line and headers are larger than the server accepts (16 KiB in all).') };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, error: new AppError('parameter_invalid', 'The request did not arrive in time: the connection is closed.') };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, error: new AppError('parameter_invalid', 'The Content-Length header is not valid for this request.') };
    default:
      return { status: 400, error: new AppError('parameter_invalid', 'The request is not valid HTTP/1.1 and could not be read.') };
  }
}

/** Fastify's `clientErrorHandler` (called with the instance as `this`): Node's parser rejected the bytes before any request existed. */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one to answer.
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || socket.destroyed) return;
  const { status, error } = clientErrorAnswer(err);
  const requestId = newRequestId();
  this.log.info({ request_id: requestId, code: err.code, status }, 'client error');
  writeRawError(socket, status, error, requestId);
}

/**
 * Node hands a CONNECT request (a proxy tunnel) to the server's `connect` event and, with no listener,
 * closes the connection without a word. Formsign is no proxy: it answers 405 method_not_allowed with a
 * request id, as any other method it does not serve, and closes the connection (whatever follows the
 * request on it would be tunnel bytes, not HTTP).
 */
export function answerConnect(app: FastifyInstance): void {
  app.server.on('connect', (req: http.IncomingMessage, socket: Socket) => {
    const requestId = newRequestId();
    app.log.info({ request_id: requestId, method: req.method, status: 405 }, 'CONNECT refused');
    socket.on('error', () => undefined);
    writeRawError(socket, 405, new AppError('method_not_allowed', 'CONNECT is not served here: this is an API, not a proxy.', undefined, { Allow: 'GET, HEAD, POST, PATCH, DELETE' }), requestId);
  });
}
