import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  at: number;
  path: string;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

/** A webhook receiver on loopback that keeps every request's exact bytes and answers as scripted. */
export async function startReceiver(answer: (r: Received, n: number) => Answer | Promise<Answer> = () => ({ status: 200 })) {
  const received: Received[] = [];
  // A scripted delay outlives the connection it was for: close() clears it, so a slow answer the test
  // no longer waits for leaves no timer behind (it held the process 5 s after test/webhooks/ssrf.test.ts).
  const delays = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, raw: Buffer.concat(chunks), at: Date.now(), path: req.url ?? '' };
      received.push(r);
      void Promise.resolve(answer(r, received.length)).then(async (a) => {
        if (a.delayMs) {
          await new Promise<void>((d) => {
            const timer = setTimeout(() => {
              delays.delete(timer);
              d();
            }, a.delayMs);
            delays.add(timer);
          });
        }
        res.writeHead(a.status, a.headers ?? {});
        res.end(a.body ?? '');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of delays) clearTimeout(timer);
        delays.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
