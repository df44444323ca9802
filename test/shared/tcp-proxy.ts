import net from 'node:net';

// A loopback TCP proxy in front of a real server (PostgreSQL, S3), which a test can cut without touching
// the shared server: `cut()` ends every open connection at once (a reset, as a crashed server or a
// failover gives) and resets every new one until `restore()`; `cut(ms)` restores by itself after `ms`.
// The address never changes, so the code under test keeps its configuration throughout.

export interface TcpProxy {
  readonly port: number;
  /** Connections accepted and passed through so far. */
  readonly passed: number;
  /** Connections reset while cut (those open at the cut and those tried during it). */
  readonly refused: number;
  /** Cut until `restore()`, or for `ms` (the promise resolves when the time is up). */
  cut(ms?: number): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  // Each open connection: its client socket and the upstream one.
  const open = new Map<net.Socket, net.Socket>();
  let cutUntil = 0;
  let passed = 0;
  let refused = 0;
  const server = net.createServer((client) => {
    client.on('error', () => undefined);
    if (Date.now() < cutUntil) {
      refused++;
      client.resetAndDestroy();
      return;
    }
    passed++;
    const upstream = net.connect(target);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
    open.set(client, upstream);
    const forget = () => {
      open.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', forget);
    upstream.on('close', forget);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get passed() {
      return passed;
    },
    get refused() {
      return refused;
    },
    async cut(ms) {
      cutUntil = ms === undefined ? Infinity : Date.now() + ms;
      for (const [client, upstream] of open) {
        refused++;
        client.resetAndDestroy();
        upstream.resetAndDestroy();
      }
      open.clear();
      if (ms !== undefined) await new Promise((r) => setTimeout(r, ms));
    },
    async restore() {
      cutUntil = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [client, upstream] of open) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (connections to it are refused at once). */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}
