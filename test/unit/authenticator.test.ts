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

  it('costs no query while cached, and a revocation applies once the entry expires', async () => {
    const deps = { db: handle.db, clock: systemClock };
    const account = await createAccount(deps, { name: 'x' });
    const key = await createApiKey(deps, { accountId: account.id, mode: 'test' });
    let queries = 0;
    const counting = { ...deps, db: handle.db.withPlugin({ transformQuery: (a) => (queries++, a.node), transformResult: async (a) => a.result }) };
    const auth = createAuthenticator(counting, { ttlMs: 300, maxEntries: 100, touchEveryMs: 60_000 });
    const p = await auth.authenticate(`Bearer ${key.key}`);
    assert.deepEqual({ accountId: p.accountId, mode: p.mode }, { accountId: account.id, mode: 'test' });
    const afterFirst = queries;
    for (let i = 0; i < 50; i++) await auth.authenticate(`Bearer ${key.key}`);
    assert.equal(queries, afterFirst, 'cache hits run no query');
    await revokeKey(deps, key.id);
    await auth.authenticate(`Bearer ${key.key}`); // still cached: bounded staleness
    await new Promise((r) => setTimeout(r, 350));
    await assert.rejects(auth.authenticate(`Bearer ${key.key}`), (e: unknown) => e instanceof AppError && e.code === 'api_key_invalid');
  });

  it('unknown keys are cached too, within a bounded size', async () => {
    let queries = 0;
    const counting = { db: handle.db.withPlugin({ transformQuery: (a) => (queries++, a.node), transformResult: async (a) => a.result }), clock: systemClock };
    const auth = createAuthenticator(counting, { ttlMs: 10_000, maxEntries: 3, touchEveryMs: 60_000 });
    const bad = `Bearer fk_test_${'f'.repeat(32)}`;
    await assert.rejects(auth.authenticate(bad));
    await assert.rejects(auth.authenticate(bad));
    assert.equal(queries, 1);
    for (let i = 0; i < 10; i++) await assert.rejects(auth.authenticate(`Bearer fk_test_${String(i).repeat(32)}`));
    await assert.rejects(auth.authenticate(bad));
    assert.equal(queries, 12, 'the oldest entries were evicted');
  });
});
