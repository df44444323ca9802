import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest } from '../../src/db/database.js';
import { durableTransact } from '../../src/db/handles.js';
import { addUsage, monthUsage } from '../../src/db/repositories/usage.js';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { QuotaCounter } from '../../src/domain/limits/quota.js';
import { DIALECTS, openStore } from '../harness.js';

const DEFAULT_MONTHLY_CALLS = { trial: 1_000, paid: 10_000 };

// The quota counter on its own: batched writes on a timer, what a crash loses, what a restart reads.

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const MONTH = '2026-11';

async function waitFor(check: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

for (const dialect of DIALECTS) {
  describe(`quota counter (${dialect})`, () => {
    let store: Awaited<ReturnType<typeof openStore>>;
    const clock = { now: () => new Date(NOW) };
    const logged: string[] = [];
    const counter = () => new QuotaCounter({ db: store.handle.db, transact: store.handle.transact, clock }, { flushEveryMs: 50, monthlyCalls: DEFAULT_MONTHLY_CALLS, log: (l) => void logged.push(l) });
    before(async () => {
      store = await openStore(dialect, 'quota');
      await migrateToLatest(store.handle);
    });
    after(() => store.close());

    it('calls reach the database on the timer; a crash loses only the calls since the last flush; a restart reads the total', async () => {
      const account = await createAccount({ transact: store.handle.transact, clock }, { name: 'Quota', plan: 'paid' });
      const q = counter();
      q.start();
      assert.equal((await q.limits(account.id)).monthlyLimit, 10_000);
      for (let i = 0; i < 5; i++) q.count(account.id, MONTH);
      assert.equal(q.used(account.id, MONTH), 5, 'counted at once, before any write');
      await waitFor(async () => (await monthUsage(store.handle.db, account.id, MONTH)) === 5, 'the timer flush');
      // Three more, then the process dies before the next flush (synchronously: no timer can run between).
      for (let i = 0; i < 3; i++) q.count(account.id, MONTH);
      q.abandon();
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(await monthUsage(store.handle.db, account.id, MONTH), 5, 'only the last interval is lost');

      const restarted = counter();
      await restarted.limits(account.id);
      assert.equal(restarted.used(account.id, MONTH), 5);
      // A graceful stop writes what is pending.
      restarted.count(account.id, MONTH);
      restarted.count(account.id, MONTH);
      await restarted.stop();
      assert.equal(await monthUsage(store.handle.db, account.id, MONTH), 7);
    });

    it('two counters (two servers) add up in the database and each sees the other after a flush', async () => {
      const account = await createAccount({ transact: store.handle.transact, clock }, { name: 'Shared' });
      const one = counter();
      const two = counter();
      await Promise.all([one.limits(account.id), two.limits(account.id)]);
      for (let i = 0; i < 4; i++) one.count(account.id, MONTH);
      for (let i = 0; i < 6; i++) two.count(account.id, MONTH);
      await Promise.all([one.flush(), two.flush()]);
      assert.equal(await monthUsage(store.handle.db, account.id, MONTH), 10);
      // A flush reads again the totals of the accounts in use since the previous one.
      for (const q of [one, two]) {
        q.limits(account.id);
        await q.flush();
        assert.equal(q.used(account.id, MONTH), 10);
      }
      await Promise.all([one.stop(), two.stop()]);
      assert.deepEqual(logged, []);
    });

    it('a reload while a flush is writing the account\'s calls does not count them twice', async () => {
      // The flush's write commits, then waits at this gate before the flush finishes: the window in
      // which the database already holds the batch while it is still counted as in flight.
      let atGate!: () => void;
      const reached = new Promise<void>((r) => { atGate = r; });
      let release!: () => void;
      const gate = new Promise<void>((r) => { release = r; });
      let gated = false;
      const transact = durableTransact(async (fn) => {
        const out = await store.handle.transact(fn);
        if (gated) { atGate(); await gate; }
        return out;
      });
      // staleAfterMs -1: every limits() call reads again unless something holds it back.
      const q = new QuotaCounter({ db: store.handle.db, transact, clock }, { flushEveryMs: 60_000, monthlyCalls: DEFAULT_MONTHLY_CALLS, staleAfterMs: -1, maxAccounts: 1, log: (l) => void logged.push(l) });
      const a = await createAccount({ transact: store.handle.transact, clock }, { name: 'Boundary A', plan: 'paid' });
      const b = await createAccount({ transact: store.handle.transact, clock }, { name: 'Boundary B', plan: 'paid' });
      await q.limits(a.id);
      for (let i = 0; i < 5; i++) q.count(a.id, MONTH);
      gated = true;
      const flushed = q.flush();
      await reached;
      assert.equal(await monthUsage(store.handle.db, a.id, MONTH), 5, 'the batch is in the database');
      await q.limits(a.id);
      assert.equal(q.used(a.id, MONTH), 5, 'a known account: counted once while the flush runs');
      // Another account pushes this one out (maxAccounts 1): its first read must wait for the flush.
      await q.limits(b.id);
      const usedAfterRead = Promise.resolve(q.limits(a.id)).then(() => q.used(a.id, MONTH));
      setTimeout(release, 300);
      assert.equal(await usedAfterRead, 5, 'an evicted account: read after the flush, counted once');
      await flushed;
      gated = false;
      assert.equal(q.used(a.id, MONTH), 5);
      q.count(a.id, MONTH);
      await q.limits(a.id);
      assert.equal(q.used(a.id, MONTH), 6, 'with no flush running, a reload reads the total as before');
      await q.stop();
      assert.equal(await monthUsage(store.handle.db, a.id, MONTH), 6);
      assert.deepEqual(logged, []);
    });
  });
}

describe('usage upsert', () => {
  for (const dialect of DIALECTS) {
    it(`adds many accounts' batches in one statement, again and again (${dialect})`, async () => {
      const store = await openStore(dialect, 'usage');
      try {
        await migrateToLatest(store.handle);
        const incs = Array.from({ length: 450 }, (_, i) => ({ accountId: `acct_${i}`, month: MONTH, calls: i + 1 }));
        await store.handle.transact((trx) => addUsage(trx, incs, new Date(NOW).toISOString()));
        await store.handle.transact((trx) => addUsage(trx, incs, new Date(NOW).toISOString()));
        assert.equal(await monthUsage(store.handle.db, 'acct_0', MONTH), 2);
        assert.equal(await monthUsage(store.handle.db, 'acct_449', MONTH), 900);
        assert.equal(await monthUsage(store.handle.db, 'acct_449', '2026-12'), 0);
      } finally {
        await store.close();
      }
    });
  }
});
