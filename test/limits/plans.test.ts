import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bootstrapDemo } from '../../src/domain/accounts/bootstrap-demo.js';
import { createAccount, getAccount, setAccountLimits } from '../../src/domain/accounts/manage-accounts.js';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { signedUp } from '../dashboard/support.js';

// Issue 37 item 3: the instance belongs to its owner. The first-start account has no monthly quota and
// may use live mode; sign-ups get DEFAULT_PLAN; each plan's quota is configuration.

const MONTHLY = ['x-ratelimit-monthly-limit', 'x-ratelimit-monthly-remaining', 'x-ratelimit-monthly-reset'];

for (const dialect of DIALECTS) {
  describe(`plans are the operator's configuration (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect, { env: { DEFAULT_PLAN: 'paid', PLAN_TRIAL_MONTHLY_CALLS: '3', PLAN_PAID_MONTHLY_CALLS: '4' } });
    });
    after(async () => h.close());

    const get = (key: string, url = '/api/v1/forms') => h.request({ url, headers: { authorization: `Bearer ${key}` } });

    it('the first-start account is paid with no monthly quota: no monthly headers, never a 429 for the month', async () => {
      // The harness made accounts already; the bootstrap runs only on an empty store, so call its rule directly.
      assert.equal(await bootstrapDemo(h.deps.domain), undefined, 'not on a store that has accounts');
      const owner = await createAccount(h.deps.domain, { name: 'Owner', plan: 'paid', unmetered: true });
      const key = (await createApiKey(h.deps.domain, { accountId: owner.id, mode: 'live' })).key;
      for (let i = 0; i < 8; i++) {
        const res = await get(key);
        assert.equal(res.status, 200, res.body);
        for (const header of MONTHLY) assert.equal(res.headers[header], undefined, `${header} is absent without a monthly quota`);
        assert.ok(res.headers['x-ratelimit-limit'], 'the per-minute window still applies');
      }
    });

    it('a trial account gets the configured trial quota (3): the 4th call is 429 monthly_quota_exceeded', async () => {
      const trial = await createAccount(h.deps.domain, { name: 'Trial', plan: 'trial' });
      await setAccountLimits(h.deps.domain, trial.id, { perMinute: 1_000_000 });
      const key = (await createApiKey(h.deps.domain, { accountId: trial.id, mode: 'test' })).key;
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 4; i++) statuses.push((last = await get(key)).status);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      assert.equal(errorOf(last!).code, 'monthly_quota_exceeded');
      assert.equal(last!.headers['x-ratelimit-monthly-limit'], '3');
      // `--monthly none` lifts it at once for this process's next read (the quota cache refreshes on flush).
      await setAccountLimits(h.deps.domain, trial.id, { monthly: 'none' });
      assert.equal((await getAccount(h.deps.domain, trial.id)).unmetered, true);
      await h.deps.limits.flush();
      const lifted = await get(key);
      assert.equal(lifted.status, 200, lifted.body);
      assert.equal(lifted.headers['x-ratelimit-monthly-limit'], undefined);
    });

    it('a dashboard sign-up gets DEFAULT_PLAN (paid here) and its quota (4)', async () => {
      const v = await signedUp(h);
      const account = await getAccount(h.deps.domain, v.accountId);
      assert.deepEqual([account.plan, account.unmetered], ['paid', false]);
      const usage = await v.call('GET', '/dashboard/api/usage');
      assert.equal(usage.status, 200, usage.body);
      assert.equal(usage.json<{ monthly: { limit: number } }>().monthly.limit, 4);
    });
  });
}
