import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { REQUEST_ID } from '../contract-check.js';
import { createHarness, type Harness } from '../harness.js';
import { listen, rawExchange } from './raw-http.js';

// Slow clients are cut off: unfinished headers, a trickling body, and the connection cap. The limits
// are shortened here so the test takes seconds (defaults: DEFAULT_HTTP_LIMITS in slow-clients.ts).

describe('slow clients', () => {
  let h: Harness;
  let port: number;
  before(async () => {
    h = await createHarness('sqlite', {
      limits: { headersTimeoutMs: 600, requestTimeoutMs: 5_000, checkIntervalMs: 100, bodyRateFloorBytesPerS: 2_000, bodyRateWindowMs: 500, maxConnections: 20 },
    });
    port = await listen(h.app);
  });
  after(() => h.close());

  it('a client that never finishes its headers is answered 408 and disconnected', async () => {
    const r = await rawExchange(port, async (s) => {
      s.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n');
    });
    assert.ok(r.closedAfterMs < 2_500, `closed after ${r.closedAfterMs} ms`);
    assert.ok(r.closedAfterMs >= 500, `not before the deadline: ${r.closedAfterMs} ms`);
    assert.match(r.head, /^HTTP\/1\.1 408 /);
    assert.match(r.head, /\r\nConnection: close\r\n/i);
    const id = /\r\nService-Request-Id: (\S+)\r\n/i.exec(r.head)?.[1];
    assert.match(String(id), REQUEST_ID);
    const e = (JSON.parse(r.body) as { error: { code: string; request_id: string } }).error;
    assert.equal(e.request_id, id);
  });

  it('a body trickling in slower than the floor is cut off with 408 and the request id', async () => {
    const body = JSON.stringify({ template_id: 'tmpl_000000000000000000000000', name: 'x'.repeat(5_000) });
    const r = await rawExchange(port, async (s, closed) => {
      s.write(`POST /api/v1/forms HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.actors.aTest.key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
      // 100 bytes every 200 ms: 500 B/s against a floor of 2,000 B/s.
      for (let i = 0; i < body.length && !closed(); i += 100) {
        s.write(body.slice(i, i + 100));
        await new Promise((res) => setTimeout(res, 200));
      }
    });
    assert.ok(r.closedAfterMs < 3_000, `closed after ${r.closedAfterMs} ms`);
    assert.match(r.head, /^HTTP\/1\.1 408 /);
    const e = (JSON.parse(r.body) as { error: { code: string; message: string; request_id: string } }).error;
    assert.match(e.message, /slower than/);
    assert.equal(e.request_id, /\r\nService-Request-Id: (\S+)\r\n/i.exec(r.head)?.[1]);
  });

  it('a body arriving above the floor, in pieces, goes through', async () => {
    const body = JSON.stringify({ template_id: 'tmpl_000000000000000000000000', name: 'x'.repeat(150) });
    const r = await rawExchange(port, async (s) => {
      s.write(`POST /api/v1/forms HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.actors.aTest.key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`);
      for (let i = 0; i < body.length; i += 60) {
        s.write(body.slice(i, i + 60));
        await new Promise((res) => setTimeout(res, 20));
      }
    });
    // The template does not exist: the body was read whole and validated.
    assert.match(r.head, /^HTTP\/1\.1 404 /);
  });

  it('connections past the cap are refused while /healthz answers again once they are gone', async () => {
    const sockets: net.Socket[] = [];
    try {
      for (let i = 0; i < 25; i++) {
        const s = net.connect(port, '127.0.0.1');
        s.on('error', () => undefined);
        sockets.push(s);
      }
      await new Promise((res) => setTimeout(res, 200));
      const open = await new Promise<number>((res) => h.app.server.getConnections((_e, n) => res(n)));
      assert.ok(open <= 20, `${open} connections open, cap 20`);
    } finally {
      for (const s of sockets) s.destroy();
    }
    await new Promise((res) => setTimeout(res, 100));
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal(health.status, 200);
  });
});
