import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Starts the app on a free loopback port. */
export async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('not listening');
  return address.port;
}

export interface RawResult {
  head: string;
  body: string;
  closedAfterMs: number;
}

/**
 * Opens a raw TCP connection, lets `send` write whatever it likes (`closed()` tells it the server has
 * hung up), and collects what comes back until the server closes the connection (10 s at most).
 */
export function rawExchange(port: number, send: (s: net.Socket, closed: () => boolean) => Promise<void>): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error('the server did not close the connection within 10 s'));
    }, 10_000);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      done = true;
      clearTimeout(guard);
      const text = Buffer.concat(chunks).toString('utf8');
      const at = text.indexOf('\r\n\r\n');
      resolve({ head: at < 0 ? text : text.slice(0, at + 2), body: at < 0 ? '' : text.slice(at + 4), closedAfterMs: Math.round(performance.now() - started) });
    });
    socket.on('connect', () => {
      send(socket, () => done).catch(() => undefined);
    });
  });
}
