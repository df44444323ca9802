import net from 'node:net';

/**
 * A loopback TCP proxy in front of a real server (PostgreSQL), which a test can cut: `cut()` ends
 * every connection through it and refuses new ones (as a dead host or a closed firewall port would),
 * `restore()` listens again on the same port. The address never changes, so the code under test keeps
 * its configuration throughout.
 */
export interface TcpProxy {
  readonly port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const makeServer = () =>
    net.createServer((client) => {
      track(client);
      const upstream = net.connect(target.port, target.host);
      track(upstream);
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  const listen = (server: net.Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  let server: net.Server | undefined = makeServer();
  const port = await listen(server, 0);
  const stop = async () => {
    const s = server;
    server = undefined;
    if (!s) return;
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    cut: stop,
    async restore() {
      if (server) return;
      server = makeServer();
      await listen(server, port);
    },
    close: stop,
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
