import net from 'node:net';

// A loopback TCP proxy the cluster's processes reach PostgreSQL and S3 through, so the test can take
// either away without touching the shared server: `cut(ms)` ends every open connection at once (a
// reset, as a crashed server or a failover gives) and resets every new one until the time is up.

export interface TcpProxy {
  readonly port: number;
  /** Connections accepted and passed through so far. */
  readonly passed: number;
  /** Connections reset while cut (those open at the cut and those tried during it). */
  readonly refused: number;
  cut(ms: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
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
    open.add(client).add(upstream);
    const forget = () => {
      open.delete(client);
      open.delete(upstream);
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
      cutUntil = Date.now() + ms;
      for (const s of open) {
        refused++;
        s.resetAndDestroy();
      }
      open.clear();
      await new Promise((r) => setTimeout(r, ms));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
