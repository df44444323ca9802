import http from 'node:http';
import { AppError } from '../domain/errors.js';
import { errorBody } from '../http/error-body.js';
import { DEFAULT_HTTP_LIMITS, serverLimitOptions } from '../http/plugins/slow-clients.js';
import { newRequestId } from '../lib/ids.js';

/**
 * `formsign serve` listens before its start-up steps run (issue 35 item 5): while it waits for the
 * database (or anything else start-up needs), /healthz answers 200 (the process is alive: an
 * orchestrator must not restart it), /readyz answers 503 naming what it waits for, and every other
 * request 503 `service_unavailable` with Retry-After. Once start-up is done the same listening socket
 * is handed to the HTTP app (Fastify's serverFactory), so no connection is refused in between.
 */
export interface StartGate {
  readonly server: http.Server;
  /** For buildApp: Fastify serves through this server, not one of its own. */
  serverFactory(handler: http.RequestListener): http.Server;
  /** Start-up is done: requests go to the app from now on. */
  open(): void;
  /** Start-up failed or was stopped: stop listening and end the open connections. */
  close(): Promise<void>;
}

const RETRY_AFTER_S = 5;

export async function listenStartGate(where: { port: number; host: string }, waitingFor: () => readonly string[]): Promise<StartGate> {
  const limits = serverLimitOptions(DEFAULT_HTTP_LIMITS);
  let app: http.RequestListener | undefined;
  let opened = false;
  const starting: http.RequestListener = (req, res) => {
    const id = newRequestId();
    const path = (req.url ?? '').split('?')[0];
    const parts = waitingFor();
    const waiting = parts.length > 0 ? `waiting for ${parts.join(' and ')}` : 'starting';
    res.setHeader('Service-Request-Id', id);
    res.setHeader('Cache-Control', 'no-store');
    if (path === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(req.method === 'HEAD' ? undefined : JSON.stringify({ status: 'ok' }));
      return;
    }
    const message = path === '/readyz' ? `Not ready: the server is starting (${waiting}).` : `The server is starting (${waiting}). Try again in ${RETRY_AFTER_S} seconds.`;
    const body = errorBody(new AppError('service_unavailable', message), id);
    res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': String(RETRY_AFTER_S) }).end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
  };
  const server = http.createServer(limits.http, (req, res) => (opened && app ? app(req, res) : starting(req, res)));
  // What Fastify sets on a server it makes itself (its serverFactory leaves them to us).
  server.keepAliveTimeout = limits.keepAliveTimeout;
  server.requestTimeout = limits.requestTimeout;
  server.setTimeout(limits.connectionTimeout);
  server.maxConnections = DEFAULT_HTTP_LIMITS.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    serverFactory(handler) {
      app = handler;
      return server;
    },
    open() {
      opened = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
