import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import type { Metrics } from '../../src/lib/metrics.js';
import { AccessLog } from '../../src/http/plugins/access-log.js';

// No route of ours sets `logLevel` today; this keeps one that does honoured: the access line goes
// through the route's own logger (reply.log), so a route at `warn` writes no info line, while
// /metrics still sees the request.

describe('access log and a route\'s logLevel', () => {
  it('a route with logLevel warn writes no access line but is still measured', async () => {
    const lines: Array<{ route?: string; msg?: string }> = [];
    const observed: string[] = [];
    const metrics = { observeRequest: (_m: string, route: string) => void observed.push(route) } as unknown as Metrics;
    const app = Fastify({
      logger: { level: 'info', stream: { write: (l: string) => void lines.push(JSON.parse(l) as { route?: string; msg?: string }) } },
      logController: new AccessLog(metrics),
    });
    app.get('/quiet', { logLevel: 'warn' }, async () => 'q');
    app.get('/loud', async () => 'l');
    try {
      assert.equal((await app.inject({ url: '/quiet' })).statusCode, 200);
      assert.equal((await app.inject({ url: '/loud' })).statusCode, 200);
      const access = lines.filter((l) => l.msg === 'request completed').map((l) => l.route);
      assert.deepEqual(access, ['/loud']);
      assert.deepEqual(observed, ['/quiet', '/loud']);
    } finally {
      await app.close();
    }
  });
});
