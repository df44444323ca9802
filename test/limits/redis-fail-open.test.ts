import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RedisWindowStore } from '../../src/domain/limits/redis-window.js';
import { closedPort } from '../shared/tcp-proxy.js';

// Redis that is not there: every check passes at once (fail open) and is counted, and the warning is
// logged once per interval, not once per request.

describe('Redis window store without Redis', () => {
  it('fails open at once, counts each request, warns once per interval', async () => {
    const lines: string[] = [];
    let failOpens = 0;
    const store = new RedisWindowStore({ url: `redis://127.0.0.1:${await closedPort()}`, windowMs: 60_000, onFailOpen: () => failOpens++, log: (l) => void lines.push(l), warnEveryMs: 60_000 });
    try {
      const started = performance.now();
      const answers = [];
      for (let i = 0; i < 20; i++) answers.push(await store.hit(`acct_x GET /api/v1/templates`, 5, 1, Date.now()));
      assert.ok(answers.every((a) => a.allowed && a.prev === 0 && a.cur === 1), JSON.stringify(answers[0]));
      assert.equal(failOpens, 20);
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.match(lines[0]!, /^Redis is unreachable .*fail open/);
      // Nothing waits for a connection: were each check to wait out its 500 ms command timeout, twenty
      // would take 10 s.
      assert.ok(performance.now() - started < 5000, `${performance.now() - started} ms`);
    } finally {
      await store.close();
    }
  });
});
