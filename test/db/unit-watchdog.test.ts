import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrateToLatest, openDatabase } from '../../src/db/database.js';
import { SlowUnitError, STRICT_UNIT_CEILING_MS, UNIT_LIMIT_MS, type UnitWatchdog } from '../../src/db/group-commit.js';
import type { Trx } from '../../src/db/handles.js';
import { createHarness, openStore } from '../harness.js';

// The unit-of-work watchdog (group-commit.ts): a unit that holds SQLite's group commit longer than
// UNIT_LIMIT_MS is reported (the server logs and counts it in /metrics). In strict mode (the test
// harness) a unit that waits inside the batch (the event loop turns), or holds it past
// STRICT_UNIT_CEILING_MS, is rolled back and rejected so that the test which wrote it fails.

/** Holds the batch's connection for `ms` without yielding, as a unit doing heavy work would. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* spin */ }
}

const write = (name: string, holdMs = 0) => async (trx: Trx): Promise<string> => {
  await trx.insertInto('service_secrets').values({ name, value: 'v', created_at: '2026-01-01T00:00:00.000Z' }).execute();
  if (holdMs > 0) busyFor(holdMs);
  return name;
};

async function withStore<T>(watchdog: UnitWatchdog, fn: (s: ReturnType<typeof openDatabase>) => Promise<T>): Promise<T> {
  const { dataDir, close } = await openStore('sqlite', 'watchdog');
  await close();
  const handle = openDatabase({ dataDir, unitWatchdog: watchdog });
  try {
    await migrateToLatest(handle);
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

const stored = async (db: ReturnType<typeof openDatabase>['db'], name: string) => (await db.selectFrom('service_secrets').select('name').where('name', '=', name).executeTakeFirst()) !== undefined;

describe('unit-of-work watchdog (sqlite)', () => {
  it('reports a unit that holds the group commit past the limit, and keeps its writes when not strict', async () => {
    const slow: number[] = [];
    await withStore({ onSlow: (ms) => slow.push(ms) }, async (store) => {
      assert.equal(await store.transact(write('quick')), 'quick');
      // (Whether the quick unit was reported is not asserted: on a loaded machine the first statements
      // of a fresh store can take that long. The slow one always is.)
      const before = slow.length;
      assert.equal(await store.transact(write('slow', UNIT_LIMIT_MS + 20)), 'slow');
      assert.equal(slow.length, before + 1);
      assert.ok(slow.at(-1)! >= UNIT_LIMIT_MS + 20 && slow.at(-1)! < 10_000, `held ${slow.at(-1)} ms`);
      assert.equal(await stored(store.db, 'slow'), true, 'production keeps the slow unit\'s writes');
    });
  });

  it('strict: a unit holding the batch past the ceiling is rolled back and rejects with SlowUnitError; the others of its batch commit', async () => {
    const slow: number[] = [];
    await withStore({ strict: true, onSlow: (ms) => slow.push(ms) }, async (store) => {
      // Three units of one turn share a batch; the middle one holds it far too long.
      const results = await Promise.allSettled([store.transact(write('before')), store.transact(write('hog', STRICT_UNIT_CEILING_MS + 20)), store.transactReplayable(write('after'))]);
      assert.equal(results[0].status, 'fulfilled');
      assert.equal(results[2].status, 'fulfilled');
      const rejected = results[1];
      assert.equal(rejected.status, 'rejected');
      const error = (rejected as PromiseRejectedResult).reason as unknown;
      assert.ok(error instanceof SlowUnitError, String(error));
      assert.equal(error.limitMs, UNIT_LIMIT_MS);
      assert.equal(error.waited, false);
      assert.ok(error.heldMs > STRICT_UNIT_CEILING_MS);
      assert.match(error.message, /held the SQLite group commit for \d+\.\d ms \(limit 50 ms\): a unit may only run its own statements/);
      assert.equal(slow.length, 1, 'still reported');
      assert.equal(await stored(store.db, 'hog'), false, 'rolled back to its savepoint');
      assert.equal(await stored(store.db, 'before'), true);
      assert.equal(await stored(store.db, 'after'), true);
    });
  });

  it('strict: a unit that waits on something other than its own statements rejects, however short the wait', async () => {
    await withStore({ strict: true }, async (store) => {
      await assert.rejects(
        store.transact(async (trx) => {
          await write('waiting')(trx);
          await new Promise((r) => setTimeout(r, 5));
        }),
        (e: unknown) => e instanceof SlowUnitError && e.waited && /waited on something other than its own statements/.test(e.message),
      );
      assert.equal(await stored(store.db, 'waiting'), false);
      // Many statements of its own, awaited one after another, are no wait.
      assert.equal(await store.transact(async (trx) => {
        for (let i = 0; i < 50; i++) await write(`own_${i}`)(trx);
        return 'ok';
      }), 'ok');
    });
  });

  it('the server logs a slow unit as a warning and counts it in /metrics; the test harness makes it throw', async () => {
    const h = await createHarness('sqlite');
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args.join(' '));
    try {
      const count = async () => {
        const res = await h.app.inject({ url: '/metrics' });
        assert.equal(res.statusCode, 200);
        const line = res.body.split('\n').find((l) => l.startsWith('formsign_db_slow_units_total '));
        assert.ok(line, 'the counter is exported');
        return Number(line.split(' ')[1]);
      };
      // (The harness's own first units may already have been slow on a loaded machine: counted from here.)
      const before = await count();
      const warnedBefore = warned.length;
      await assert.rejects(h.deps.database.transact(async (trx) => {
        await write('waits')(trx);
        await new Promise((r) => setTimeout(r, UNIT_LIMIT_MS + 10));
      }), SlowUnitError);
      assert.equal(await count(), before + 1);
      // At most one warning line every 5 s (lib/throttled-warning.ts): if the harness's own first units
      // were slow just before, this one is counted but not logged again.
      assert.ok(warned.length <= warnedBefore + 1, warned.join('\n'));
      for (const line of warned) assert.match(line, /^formsign: warning: a unit of work held the SQLite group commit for \d+\.\d ms \(limit 50 ms\)/);
    } finally {
      console.warn = warn;
      await h.close();
    }
  });
});
