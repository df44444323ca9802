import type { ServerOptions } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { writeRawError } from './client-error.js';

/**
 * How long and how slowly a client may take. A client holding a connection without finishing its
 * request costs a file descriptor and memory; these bound both (issue: 200 unfinished connections
 * stayed open for minutes and starved /healthz).
 */
export interface HttpLimits {
  /** The request line and headers must arrive within this (Node's headersTimeout). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (Node's requestTimeout). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** A connection with no traffic either way for this long is closed (socket timeout). */
  idleTimeoutMs: number;
  /** Connections beyond this are refused at once. */
  maxConnections: number;
  /** A request body arriving slower than this, measured over `bodyRateWindowMs`, is cut off. */
  bodyRateFloorBytesPerS: number;
  bodyRateWindowMs: number;
  /** How often Node checks the header and request deadlines. */
  checkIntervalMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 30_000,
  idleTimeoutMs: 120_000,
  maxConnections: 512,
  bodyRateFloorBytesPerS: 8 * 1024,
  bodyRateWindowMs: 10_000,
  checkIntervalMs: 1_000,
};

/** The Fastify options that carry the limits to Node's server. */
export function serverLimitOptions(l: HttpLimits): { connectionTimeout: number; keepAliveTimeout: number; requestTimeout: number; http: ServerOptions } {
  return {
    connectionTimeout: l.idleTimeoutMs,
    keepAliveTimeout: l.keepAliveTimeoutMs,
    requestTimeout: l.requestTimeoutMs,
    http: { headersTimeout: l.headersTimeoutMs, connectionsCheckingInterval: l.checkIntervalMs },
  };
}

/** Limits Node takes only on the server object, and the body-rate floor, which Node does not have. */
export function installSlowClientLimits(app: FastifyInstance, l: HttpLimits): void {
  app.server.maxConnections = l.maxConnections;
  app.server.headersTimeout = l.headersTimeoutMs;
  app.addHook('onRequest', (req, _reply, done) => {
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) watchBodyRate(req, l);
    done();
  });
}

/**
 * Checks, once per window, that the body is still arriving at the floor rate, by the socket's byte
 * count (no listener on the body stream, which the parsers read). Stops once the body is complete.
 */
function watchBodyRate(req: FastifyRequest, l: HttpLimits): void {
  const raw = req.raw;
  const socket = raw.socket;
  // light-my-request's fake sockets have no byte count: nothing to watch.
  if (typeof socket?.bytesRead !== 'number') return;
  const minBytes = (l.bodyRateFloorBytesPerS * l.bodyRateWindowMs) / 1000;
  let seen = socket.bytesRead;
  const timer = setTimeout(function check() {
    if (raw.complete || socket.destroyed) return;
    const got = socket.bytesRead - seen;
    seen = socket.bytesRead;
    if (got >= minBytes) {
      timer.refresh();
      return;
    }
    req.log.info({ bytes: got, window_ms: l.bodyRateWindowMs }, 'request body too slow; connection closed');
    const rate = `${Math.round(l.bodyRateFloorBytesPerS / 1024)} KiB/s`;
    writeRawError(socket, 408, new AppError('parameter_invalid', `The request body arrived slower than ${rate}: the connection is closed.`), req.id);
  }, l.bodyRateWindowMs);
  timer.unref();
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
}
