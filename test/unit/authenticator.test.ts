import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { AppError } from '../../src/domain/errors.js';
import { createAuthenticator } from '../../src/domain/keys/authenticate.js';
import { createApiKey, revokeKey } from '../../src/domain/keys/manage-keys.js';
import { systemClock } from '../../src/lib/clock.js';

describe('authenticator cache', () => {
  let handle: DatabaseHandle;
  let dir: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-auth-'));
    handle = openDatabase({ dataDir: dir });
    await migrateToLatest(handle);
  });
  after(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const deps = () => ({ db: handle.db, transact: handle.transact, clock: systemClock });
  /** The same store, counting the queries the authenticator runs. */
  const counting = () => {
    const counter = { queries: 0 };
    const db = handle.db.withPlugin({ transformQuery: (a) => (counter.queries++, a.node), transformResult: async (a) => a.result });
    return { counter, deps: { db, clock: systemClock } };
  };
  const newKey = async () => {
    const account = await createAccount(deps(), { name: 'x' });
    return { account, key: await createApiKey(deps(), { accountId: account.id, mode: 'test' }) };
  };
  const invalidKey = (i: number) => `Bearer fk_test_${i.toString(16).padStart(32, '0')}`;

  it('costs no query while cached, and a revocation applies once the entry expires', async () => {
    const { account, key } = await newKey();
    const { counter, deps: counted } = counting();
    const auth = createAuthenticator(counted, { ttlMs: 300, maxEntries: 100, touchEveryMs: 60_000 });
    const p = await auth.authenticate(`Bearer ${key.key}`);
    assert.deepEqual({ accountId: p.accountId, mode: p.mode }, { accountId: account.id, mode: 'test' });
    const afterFirst = counter.queries;
    for (let i = 0; i < 50; i++) await auth.authenticate(`Bearer ${key.key}`);
    assert.equal(counter.queries, afterFirst, 'cache hits run no query');
    // A cached key is answered at once (no promise on the hot path); a refusal is always a rejected
    // promise, never a synchronous throw, even for a malformed header or a cached unknown key.
    const hit = auth.authenticate(`Bearer ${key.key}`);
    assert.ok(!(hit instanceof Promise));
    assert.equal(hit.accountId, account.id);
    for (const bad of [undefined, 'Basic x', 'Bearer fk_test_nothex', invalidKey(7), invalidKey(7)]) {
      const refused = auth.authenticate(bad);
      assert.ok(refused instanceof Promise, `${String(bad)} is refused through a promise`);
      await assert.rejects(refused, (e: unknown) => e instanceof AppError && (e.code === 'api_key_invalid' || e.code === 'api_key_missing'));
    }
    // A live key of an account that is no longer paid: refused when looked up, and again through a
    // promise when answered from the cache.
    const paid = await createAccount(deps(), { name: 'y', plan: 'paid' });
    const live = await createApiKey(deps(), { accountId: paid.id, mode: 'live' });
    await handle.db.updateTable('accounts').set({ plan: 'trial' }).where('id', '=', paid.id).execute();
    for (let i = 0; i < 2; i++) {
      const refused = auth.authenticate(`Bearer ${live.key}`);
      assert.ok(refused instanceof Promise, `the live key is refused through a promise (${i === 0 ? 'looked up' : 'cached'})`);
      await assert.rejects(refused, (e: unknown) => e instanceof AppError && e.code === 'plan_required');
    }
    // Bounded staleness, with an authenticator of its own: a key cached just before it is revoked is
    // still admitted until its entry expires, then refused. (The authenticator above cached its key at
    // the start of this test; on a busy machine the steps since took longer than its 300 ms once.) A
    // machine too busy to revoke and look up within the entry's second gets another key, up to 3 times.
    let within = false;
    for (let attempt = 0; attempt < 3 && !within; attempt++) {
      const { key: fresh } = await newKey();
      const staleness = createAuthenticator(counted, { ttlMs: 1_000, maxEntries: 100, touchEveryMs: 60_000 });
      const cachedAt = Date.now();
      await staleness.authenticate(`Bearer ${fresh.key}`);
      await revokeKey(deps(), fresh.id);
      const stale = staleness.authenticate(`Bearer ${fresh.key}`);
      if (Date.now() - cachedAt >= 1_000) {
        if (stale instanceof Promise) stale.catch(() => undefined);
        continue;
      }
      within = true;
      assert.ok(!(stale instanceof Promise), 'still cached: admitted at once');
      await new Promise((r) => setTimeout(r, Math.max(0, cachedAt + 1_050 - Date.now())));
      await assert.rejects(async () => staleness.authenticate(`Bearer ${fresh.key}`), (e: unknown) => e instanceof AppError && e.code === 'api_key_invalid');
    }
    assert.ok(within, 'the revocation and the second look-up ran within the cache entry\'s life in one of 3 attempts');
  });

  it('unknown keys are cached too, within a bounded size', async () => {
    const { counter, deps: counted } = counting();
    const auth = createAuthenticator(counted, { ttlMs: 10_000, maxEntries: 3, touchEveryMs: 60_000 });
    const bad = invalidKey(0xfff);
    await assert.rejects(async () => auth.authenticate(bad));
    await assert.rejects(async () => auth.authenticate(bad));
    assert.equal(counter.queries, 1);
    for (let i = 0; i < 10; i++) await assert.rejects(async () => auth.authenticate(invalidKey(i)));
    await assert.rejects(async () => auth.authenticate(bad));
    assert.equal(counter.queries, 12, 'the oldest entries were evicted');
    assert.equal(auth.cacheSizes().invalid, 3);
  });

  it('a flood of 30,000 distinct invalid keys evicts no valid key and keeps both caches within their bounds', async () => {
    const keys = await Promise.all([newKey(), newKey(), newKey()]);
    const { counter, deps: counted } = counting();
    const auth = createAuthenticator(counted, { ttlMs: 600_000, maxEntries: 100, maxInvalidEntries: 1_000, touchEveryMs: 600_000 });
    for (const k of keys) await auth.authenticate(`Bearer ${k.key.key}`);
    for (let i = 0; i < 30_000; i++) {
      await assert.rejects(async () => auth.authenticate(invalidKey(i)), (e: unknown) => e instanceof AppError && e.code === 'api_key_invalid');
      // The valid keys in use stay hot while the flood goes on.
      if (i % 5_000 === 0) await auth.authenticate(`Bearer ${keys[0]!.key.key}`);
    }
    assert.deepEqual(auth.cacheSizes(), { valid: 3, invalid: 1_000 });
    const before = counter.queries;
    for (const k of keys) await auth.authenticate(`Bearer ${k.key.key}`);
    assert.equal(counter.queries, before, 'every valid key is still cached after the flood: no query');
  });

  it('a key that becomes valid or invalid moves between the caches', async () => {
    const { key } = await newKey();
    const auth = createAuthenticator(deps(), { ttlMs: 0, maxEntries: 10, touchEveryMs: 600_000 });
    await auth.authenticate(`Bearer ${key.key}`);
    assert.deepEqual(auth.cacheSizes(), { valid: 1, invalid: 0 });
    await revokeKey(deps(), key.id);
    await assert.rejects(async () => auth.authenticate(`Bearer ${key.key}`));
    assert.deepEqual(auth.cacheSizes(), { valid: 0, invalid: 1 });
  });
});
