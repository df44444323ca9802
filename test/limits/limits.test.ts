import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { monthUsage } from '../../src/db/repositories/usage.js';
import { setAccountLimits } from '../../src/domain/accounts/manage-accounts.js';
import { DIALECTS, createHarness, errorOf, type Actor, type Harness, type TestResponse } from '../harness.js';

// Windows, quota and their headers through the HTTP app, with an injected clock (issue 14).

const T0 = Date.UTC(2026, 10, 24, 10, 0, 0); // on a window boundary
const NEXT_MONTH = Date.UTC(2026, 11, 1) / 1000;

function limitHeaders(res: TestResponse) {
  const n = (name: string) => {
    const v = res.headers[name];
    assert.ok(v !== undefined, `${name} missing on ${res.status}: ${JSON.stringify(res.headers)}`);
    assert.match(String(v), /^\d+$/, name);
    return Number(v);
  };
  return {
    limit: n('x-ratelimit-limit'),
    remaining: n('x-ratelimit-remaining'),
    reset: n('x-ratelimit-reset'),
    window: n('x-ratelimit-window'),
    monthlyLimit: n('x-ratelimit-monthly-limit'),
    monthlyRemaining: n('x-ratelimit-monthly-remaining'),
    monthlyReset: n('x-ratelimit-monthly-reset'),
  };
}

for (const dialect of DIALECTS) {
  describe(`rate limits and monthly quota (${dialect})`, () => {
    let h: Harness;
    let now = T0;
    const clock = { now: () => new Date(now) };
    const get = (url: string, as: Actor) => h.request({ url, as });
    // An uncounted call marks the account in use, and the flush reads its limits and total again.
    const refresh = async (as: Actor) => {
      await get('/api/v1/openapi.yaml', as);
      await h.deps.limits.flush();
    };
    before(async () => {
      h = await createHarness(dialect, { clock, contractLimits: true });
    });
    after(() => h.close());

    it('headers on 200, 400 and 404, coherent: remaining decreases, resets in the future', async () => {
      now = T0 + 5_000;
      const a = h.actors.aTest;
      const first = await get('/api/v1/templates', a);
      assert.equal(first.status, 200);
      const h1 = limitHeaders(first);
      assert.deepEqual([h1.limit, h1.window, h1.monthlyLimit, h1.monthlyReset], [300, 60, 10_000, NEXT_MONTH]);
      assert.equal(h1.remaining, 299);
      assert.equal(h1.monthlyRemaining, 9_999);
      // A request weighs fully to the end of its fixed window, then slides out over the next one.
      assert.ok(h1.reset > now / 1000 && h1.reset <= now / 1000 + 120, `reset ${h1.reset} within two windows after ${now / 1000}`);

      const bad = await get('/api/v1/templates?limit=0', a);
      assert.equal(bad.status, 400);
      const h2 = limitHeaders(bad);
      assert.equal(h2.remaining, 298, 'the same endpoint: one fewer');
      assert.equal(h2.monthlyRemaining, 9_998);

      const missing = await get('/api/v1/forms/frm_000000000000000000000000', a);
      assert.equal(missing.status, 404);
      const h3 = limitHeaders(missing);
      assert.equal(h3.limit, 300);
      assert.equal(h3.remaining, 299, 'another endpoint has its own window');
      assert.equal(h3.monthlyRemaining, 9_997, 'the quota counts every endpoint');

      // Writes have their own defaults.
      const create = await h.request({ method: 'POST', url: '/api/v1/forms', as: a, json: {} });
      assert.equal(create.status, 400);
      assert.equal(limitHeaders(create).limit, 120);
    });

    it('an unauthenticated 401 carries the per-address window (no account, so no monthly headers)', async () => {
      for (const res of [await h.request({ url: '/api/v1/templates' }), await h.request({ url: '/api/v1/templates', headers: { authorization: 'Bearer fk_test_' + '0'.repeat(32) } })]) {
        assert.equal(res.status, 401);
        assert.equal(res.headers['x-ratelimit-limit'], '600', JSON.stringify(res.headers));
        assert.equal(Object.keys(res.headers).filter((k) => k.startsWith('x-ratelimit-monthly')).length, 0, JSON.stringify(res.headers));
      }
    });

    it('the window slides: a burst is refused with 429, half a window later part of it is free again', async () => {
      const b = h.actors.bTest;
      await setAccountLimits(h.deps.domain, b.partition.accountId, { perMinute: 5 });
      await refresh(b);
      now = T0 + 60_000; // the start of a fixed window
      for (let i = 0; i < 5; i++) {
        const ok = await get('/api/v1/templates', b);
        assert.equal(ok.status, 200, ok.body);
        assert.equal(limitHeaders(ok).remaining, 4 - i);
      }
      const refused = await get('/api/v1/templates', b);
      assert.equal(refused.status, 429);
      const e = errorOf(refused);
      assert.deepEqual([e.type, e.code], ['rate_limit_error', 'rate_limited']);
      const rh = limitHeaders(refused);
      assert.deepEqual([rh.limit, rh.remaining], [5, 0]);
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 120, `Retry-After ${retryAfter}`);
      assert.ok(rh.reset > now / 1000, 'reset in the future');
      // Another endpoint of the same account is not affected.
      assert.equal((await get('/api/v1/forms', b)).status, 200);

      // A fixed window would start afresh here; the sliding one still counts the whole burst.
      now = T0 + 120_000;
      assert.equal((await get('/api/v1/templates', b)).status, 429);
      // Half a window later, half the burst has slid out: 2.5 counted, so two more fit, not five.
      now = T0 + 150_000;
      const passed: number[] = [];
      for (let i = 0; i < 5; i++) passed.push((await get('/api/v1/templates', b)).status);
      assert.deepEqual(passed, [200, 200, 429, 429, 429]);
      // Retry-After of that refusal is when the window actually frees one (not a whole window).
      const again = await get('/api/v1/templates', b);
      const wait = Number(again.headers['retry-after']);
      now += wait * 1000;
      assert.equal((await get('/api/v1/templates', b)).status, 200, `free again after Retry-After ${wait}`);
      await setAccountLimits(h.deps.domain, b.partition.accountId, { perMinute: null });
      await refresh(b);
    });

    it('monthly quota: exhausted → 429 monthly_quota_exceeded until next month; 429s and the two documents are not counted', async () => {
      const b = h.actors.bTest;
      const account = b.partition.accountId;
      now = Date.UTC(2026, 10, 28, 12, 0, 0);
      await h.deps.limits.flush();
      const before = await monthUsage(h.deps.domain.db, account, '2026-11');
      await setAccountLimits(h.deps.domain, account, { monthly: before + 3 });
      await refresh(b);
      for (let i = 0; i < 3; i++) {
        const ok = await get('/api/v1/forms', b);
        assert.equal(ok.status, 200);
        assert.equal(limitHeaders(ok).monthlyRemaining, 2 - i);
      }
      const refused = await get('/api/v1/templates', b);
      assert.equal(refused.status, 429);
      assert.equal(errorOf(refused).code, 'monthly_quota_exceeded');
      assert.equal(Number(refused.headers['retry-after']), NEXT_MONTH - now / 1000);
      const rh = limitHeaders(refused);
      assert.deepEqual([rh.monthlyLimit, rh.monthlyRemaining, rh.monthlyReset], [before + 3, 0, NEXT_MONTH]);
      // The two documents are not counted, so they are still served, with the headers.
      for (const url of ['/api/v1/openapi.yaml', '/api/v1/sdk/typescript']) {
        const doc = await get(url, b);
        assert.equal(doc.status, 200, url);
        assert.equal(limitHeaders(doc).monthlyRemaining, 0);
      }
      await h.deps.limits.flush();
      assert.equal(await monthUsage(h.deps.domain.db, account, '2026-11'), before + 3, 'only the three served calls are counted');

      // The next month (UTC) starts afresh.
      now = Date.UTC(2026, 11, 1, 0, 0, 1);
      const fresh = await get('/api/v1/templates', b);
      assert.equal(fresh.status, 200, fresh.body);
      assert.equal(limitHeaders(fresh).monthlyRemaining, before + 2);
      assert.equal(limitHeaders(fresh).monthlyReset, Date.UTC(2027, 0, 1) / 1000);
      await h.deps.limits.flush();
      assert.equal(await monthUsage(h.deps.domain.db, account, '2026-12'), 1);
      await setAccountLimits(h.deps.domain, account, { monthly: null });
    });

    it('a paid account counts live and test calls against one quota', async () => {
      const { aTest, aLive } = h.actors;
      const account = aTest.partition.accountId;
      now = Date.UTC(2027, 0, 10, 12, 0, 0);
      await h.deps.limits.flush();
      await setAccountLimits(h.deps.domain, account, { monthly: 4 });
      await refresh(aTest);
      const statuses: number[] = [];
      for (const as of [aTest, aLive, aTest, aLive, aTest, aLive]) statuses.push((await get('/api/v1/templates', as)).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
      await h.deps.limits.flush();
      assert.equal(await monthUsage(h.deps.domain.db, account, '2027-01'), 4);
      await setAccountLimits(h.deps.domain, account, { monthly: null });
    });

    it('the excluded operations are not counted', async () => {
      const { aTest } = h.actors;
      const account = aTest.partition.accountId;
      now = Date.UTC(2027, 1, 3, 12, 0, 0);
      for (const url of ['/api/v1/openapi.yaml', '/api/v1/sdk/typescript', '/api/v1/openapi.yaml']) assert.equal((await get(url, aTest)).status, 200);
      await h.deps.limits.flush();
      assert.equal(await monthUsage(h.deps.domain.db, account, '2027-02'), 0);
      assert.equal((await get('/api/v1/templates', aTest)).status, 200);
      await h.deps.limits.flush();
      assert.equal(await monthUsage(h.deps.domain.db, account, '2027-02'), 1);
    });
  });
}
