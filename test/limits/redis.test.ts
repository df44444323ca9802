import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { setAccountLimits } from '../../src/domain/accounts/manage-accounts.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { freePort } from '../shared/free-port.js';
import { startRedis, stopRedis } from '../shared/redis-server.js';

// REDIS_URL: two server instances share one window through Redis; Redis going away fails open and
// is counted; Redis coming back is picked up without a restart (issue 14). Each run starts its own
// redis-server (nothing on disk) on a free port, so stopping it disturbs no one else.

for (const dialect of DIALECTS) {
  describe(`rate limits through Redis (${dialect})`, () => {
    let port: number;
    let redis: ChildProcess;
    let h: Harness;
    let second: { deps: Deps; app: FastifyInstance };
    const now = Date.UTC(2026, 10, 24, 10, 0, 30);
    const clock = { now: () => new Date(now) };

    before(async () => {
      port = await freePort();
      redis = await startRedis(port);
      h = await createHarness(dialect, { clock, contractLimits: true, env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
      // A second server on the same database and the same Redis.
      const deps = await createDeps(h.deps.config, { clock, authCacheMs: 0, ...(h.deps.database.pgSchema ? { pgSchema: h.deps.database.pgSchema } : {}) });
      second = { deps, app: await buildApp(deps.http, { logger: false }) };
    });
    after(async () => {
      await second?.app.close();
      await second?.deps.close();
      await h?.close();
      if (redis) await stopRedis(redis);
    });

    const call = async (app: FastifyInstance, url: string) => {
      const res = await app.inject({ url, headers: { authorization: `Bearer ${h.actors.aTest.key}` } });
      return { status: res.statusCode, remaining: Number(res.headers['x-ratelimit-remaining']) };
    };
    const failOpens = async (deps: Deps) => Number(/^formsign_rate_limit_redis_fail_open_total (\d+)$/m.exec((await deps.metrics.render()).body)?.[1] ?? NaN);
    /** Redis answers this instance again: a request goes by without a fail-open being counted. */
    const waitForRedis = async (deps: Deps, app: FastifyInstance) => {
      const until = Date.now() + 30_000;
      for (;;) {
        const before = await failOpens(deps);
        await call(app, '/api/v1/forms');
        if ((await failOpens(deps)) === before) return;
        if (Date.now() > until) throw new Error('the server did not reconnect to Redis');
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    it('two servers enforce one limit together; Redis stopped → served and counted; Redis back → enforced again', async () => {
      await setAccountLimits(h.deps.domain, h.actors.aTest.partition.accountId, { perMinute: 6 });
      await waitForRedis(h.deps, h.app);
      await waitForRedis(second.deps, second.app);
      // Fail-opens from before the connections were up (a slow start on a loaded machine) are not this
      // test's: it compares against the counts taken once both servers answer through Redis.
      const base = [await failOpens(h.deps), await failOpens(second.deps)] as const;
      const apps = [h.app, second.app];
      const seen: Array<{ status: number; remaining: number }> = [];
      for (let i = 0; i < 6; i++) seen.push(await call(apps[i % 2]!, '/api/v1/templates'));
      assert.deepEqual(seen.map((s) => s.status), [200, 200, 200, 200, 200, 200]);
      assert.deepEqual(seen.map((s) => s.remaining), [5, 4, 3, 2, 1, 0], 'one count across both servers');
      assert.equal((await call(h.app, '/api/v1/templates')).status, 429);
      assert.equal((await call(second.app, '/api/v1/templates')).status, 429);
      assert.deepEqual([await failOpens(h.deps) - base[0], await failOpens(second.deps) - base[1]], [0, 0], 'no fail-open while Redis is up');

      await stopRedis(redis);
      const during = [];
      for (let i = 0; i < 4; i++) during.push((await call(apps[i % 2]!, '/api/v1/templates')).status);
      assert.deepEqual(during, [200, 200, 200, 200], 'fail open: served while Redis is away');
      assert.ok((await failOpens(h.deps)) - base[0] >= 2 && (await failOpens(second.deps)) - base[1] >= 2, 'each fail-open is counted');

      redis = await startRedis(port);
      await waitForRedis(h.deps, h.app);
      await waitForRedis(second.deps, second.app);
      const back = [await failOpens(h.deps), await failOpens(second.deps)] as const;
      // The new Redis keeps nothing: the window starts empty and is enforced across both servers again.
      const again: number[] = [];
      for (let i = 0; i < 8; i++) again.push((await call(apps[i % 2]!, '/api/v1/templates')).status);
      assert.deepEqual(again, [200, 200, 200, 200, 200, 200, 429, 429]);
      assert.deepEqual([await failOpens(h.deps) - back[0], await failOpens(second.deps) - back[1]], [0, 0], 'none once Redis is back');
    });
  });
}
