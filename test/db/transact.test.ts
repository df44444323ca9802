import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest, type DatabaseHandle } from '../../src/db/database.js';
import type { Db, ReplayableTransact, Transact, Trx } from '../../src/db/handles.js';
import type { AccountsTable } from '../../src/db/tables.js';
import { DIALECTS, PG_URL, openStore as openFreshStore, type DialectName } from '../harness.js';

// transact() is the one way use cases write: groupCommit on SQLite (units of one turn share a
// transaction), transactEach on PostgreSQL. Both promise the same thing to callers, tested here on both.

const NOW = '2026-01-01T00:00:00.000Z';

function account(id: string): AccountsTable {
  return { id, name: `name ${id}`, email: null, plan: 'trial', monthly_limit: null, per_minute_limit: null, created_at: NOW, updated_at: NOW };
}

async function insertAccount(trx: Trx, id: string): Promise<void> {
  await trx.insertInto('accounts').values(account(id)).execute();
}

async function countInside(trx: Db, prefix: string): Promise<number> {
  const r = await trx.selectFrom('accounts').select((eb) => eb.fn.countAll<string | number>().as('n')).where('id', 'like', `${prefix}%`).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** A second connection to the same store, which sees only what has been committed. */
interface Outside {
  count(prefix: string): Promise<number>;
  ids(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

interface Store {
  handle: DatabaseHandle;
  outside: Outside;
  /** The raw second SQLite connection (SQLite only). */
  sqliteFile?: SQLite.Database;
  close(): Promise<void>;
}

async function openStore(dialect: DialectName): Promise<Store> {
  const store = await openFreshStore(dialect, 'transact');
  const { handle } = store;
  await migrateToLatest(handle);
  if (dialect === 'sqlite') {
    const file = new SQLite(path.join(store.dataDir, 'formsign.sqlite'));
    const ids = (prefix: string) => (file.prepare('select id from accounts where id like ? order by id').pluck().all(`${prefix}%`) as string[]);
    return {
      handle,
      sqliteFile: file,
      outside: { count: async (prefix) => ids(prefix).length, ids: async (prefix) => ids(prefix), close: async () => void file.close() },
      async close() {
        if (file.open) file.close();
        await store.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${store.pgSchema!}` });
  await client.connect();
  // One pg.Client runs one query at a time: queue them (units of a burst ask concurrently).
  let queue: Promise<unknown> = Promise.resolve();
  const ids = (prefix: string): Promise<string[]> => {
    const next = queue.then(async () => (await client.query<{ id: string }>('select id from accounts where id like $1 order by id', [`${prefix}%`])).rows.map((r) => r.id));
    queue = next.catch(() => undefined);
    return next;
  };
  let clientOpen = true;
  return {
    handle,
    outside: {
      count: async (prefix) => (await ids(prefix)).length,
      ids,
      close: async () => {
        clientOpen = false;
        await client.end();
      },
    },
    async close() {
      if (clientOpen) await client.end();
      await store.close();
    },
  };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const pad = (i: number) => String(i).padStart(3, '0');

/** The SQLSTATE/SQLite message of a primary-key violation on accounts, per dialect. */
function isDuplicateKey(dialect: DialectName, e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  return dialect === 'sqlite'
    ? /UNIQUE constraint failed: accounts\.id/.test(e.message) && (e as Error & { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
    : /duplicate key value violates unique constraint/.test(e.message) && (e as Error & { code?: string }).code === '23505';
}

for (const dialect of DIALECTS) {
  describe(`transact (${dialect})`, () => {
    let s: Store;
    before(async () => {
      s = await openStore(dialect);
    });
    after(() => s.close());

    it('30 units started in the same turn each resolve with their own value, and all their rows exist', async () => {
      const results = await Promise.all(
        range(30).map((i) =>
          s.handle.transact(async (trx) => {
            await insertAccount(trx, `many_${pad(i)}`);
            return { i, id: `many_${pad(i)}` };
          }),
        ),
      );
      assert.deepEqual(results, range(30).map((i) => ({ i, id: `many_${pad(i)}` })));
      assert.deepEqual(await s.outside.ids('many_'), range(30).map((i) => `many_${pad(i)}`));
    });

    it('more units in one turn than one batch takes (450 > 200) all commit', async () => {
      const results = await Promise.all(range(450).map((i) => s.handle.transact(async (trx) => (await insertAccount(trx, `big_${pad(i)}`), i))));
      assert.deepEqual(results, range(450));
      assert.equal(await s.outside.count('big_'), 450);
    });

    it('a unit that throws rejects with its own error; its writes are gone, every other unit of the turn commits', async () => {
      const boom = new Error('unit 4 fails on purpose');
      const settled = await Promise.allSettled(
        range(10).map((i) =>
          s.handle.transact(async (trx) => {
            await insertAccount(trx, `throw_${pad(i)}`);
            if (i === 4) {
              await insertAccount(trx, `throw_${pad(i)}_second`);
              throw boom;
            }
            return i;
          }),
        ),
      );
      settled.forEach((r, i) => {
        if (i === 4) {
          assert.equal(r.status, 'rejected');
          assert.equal((r as PromiseRejectedResult).reason, boom, 'the error is the very one the unit threw');
        } else {
          assert.deepEqual(r, { status: 'fulfilled', value: i });
        }
      });
      assert.deepEqual(
        await s.outside.ids('throw_'),
        range(10).filter((i) => i !== 4).map((i) => `throw_${pad(i)}`),
      );
    });

    it('a unit that violates the primary key rejects with that constraint error; the rest of the turn commits', async () => {
      await s.handle.transact((trx) => insertAccount(trx, 'dup_taken'));
      const settled = await Promise.allSettled(
        range(8).map((i) =>
          s.handle.transact(async (trx) => {
            await insertAccount(trx, `dup_${pad(i)}`);
            if (i === 3) await insertAccount(trx, 'dup_taken');
            return `dup_${pad(i)}`;
          }),
        ),
      );
      settled.forEach((r, i) => {
        if (i === 3) {
          assert.equal(r.status, 'rejected');
          assert.ok(isDuplicateKey(dialect, (r as PromiseRejectedResult).reason), String((r as PromiseRejectedResult).reason));
        } else {
          assert.deepEqual(r, { status: 'fulfilled', value: `dup_${pad(i)}` });
        }
      });
      // dup_003 was written before the violation in the same unit: rolled back with it.
      assert.deepEqual(await s.outside.ids('dup_'), [...range(8).filter((i) => i !== 3).map((i) => `dup_${pad(i)}`), 'dup_taken']);
    });

    it('several failing units in one turn each reject with their own error', async () => {
      const errors = range(6).map((i) => new Error(`fail ${i}`));
      const settled = await Promise.allSettled(
        range(6).map((i) =>
          s.handle.transact(async (trx) => {
            await insertAccount(trx, `multi_${pad(i)}`);
            if (i % 2 === 1) throw errors[i];
            return i;
          }),
        ),
      );
      settled.forEach((r, i) => {
        if (i % 2 === 1) assert.deepEqual(r, { status: 'rejected', reason: errors[i] });
        else assert.deepEqual(r, { status: 'fulfilled', value: i });
      });
      assert.deepEqual(await s.outside.ids('multi_'), ['multi_000', 'multi_002', 'multi_004']);
    });

    it('a unit alone that inserts two rows and then fails leaves neither row', async () => {
      const boom = new Error('after two inserts');
      await assert.rejects(
        s.handle.transact(async (trx) => {
          await insertAccount(trx, 'two_a');
          await insertAccount(trx, 'two_b');
          assert.equal(await countInside(trx, 'two_'), 2, 'the unit sees its own writes');
          throw boom;
        }),
        (e) => e === boom,
      );
      assert.equal(await s.outside.count('two_'), 0);
      assert.equal(await countInside(s.handle.db, 'two_'), 0, 'nor does the handle itself see them');
    });

    it('a unit does not make its writes visible to another connection before its promise resolves; once resolved, they are', async () => {
      let seenOutsideDuring = -1;
      let seenInsideDuring = -1;
      const p = s.handle.transact(async (trx) => {
        await insertAccount(trx, 'vis_1');
        seenInsideDuring = await countInside(trx, 'vis_');
        seenOutsideDuring = await s.outside.count('vis_');
        return 'done';
      });
      // Checked in the very continuation of the resolution, before anything else can commit.
      const seenAfter = await p.then(() => s.outside.count('vis_'));
      assert.equal(seenInsideDuring, 1);
      assert.equal(seenOutsideDuring, 0, 'uncommitted writes are not visible to another connection');
      assert.equal(seenAfter, 1, 'a resolved unit is committed');
    });

    it('every resolved unit of a concurrent burst is visible to another connection at the moment it resolves', async () => {
      const missing: string[] = [];
      await Promise.all(
        range(20).map((i) =>
          s.handle
            .transact((trx) => insertAccount(trx, `seen_${pad(i)}`))
            .then(async () => {
              if (!(await s.outside.ids(`seen_${pad(i)}`)).includes(`seen_${pad(i)}`)) missing.push(`seen_${pad(i)}`);
            }),
        ),
      );
      assert.deepEqual(missing, []);
    });

    it('after failures (more than the pool holds), later transactions still work and nothing stays locked', async () => {
      for (const i of range(12)) {
        await assert.rejects(
          s.handle.transact(async (trx) => {
            await insertAccount(trx, `later_fail_${pad(i)}`);
            throw new Error(`fail ${i}`);
          }),
          { message: `fail ${i}` },
        );
      }
      // A constraint failure too (the statement itself fails, not the unit's code).
      await s.handle.transact((trx) => insertAccount(trx, 'later_taken'));
      await assert.rejects(s.handle.transact((trx) => insertAccount(trx, 'later_taken')), (e) => isDuplicateKey(dialect, e));

      assert.equal(await s.handle.transact(async (trx) => (await insertAccount(trx, 'later_ok'), 'ok')), 'ok');
      assert.deepEqual(await s.outside.ids('later_'), ['later_ok', 'later_taken']);
      // No transaction was left open on the handle's connection: a plain write outside transact commits.
      await insertAccount(s.handle.db as Trx, 'later_plain'); // deliberately outside transact (the type forbids it)
      assert.deepEqual(await s.outside.ids('later_plain'), ['later_plain']);
      if (s.sqliteFile) {
        // ... and another connection can take the write lock at once (busy_timeout is 0 on this one).
        s.sqliteFile.exec('begin immediate; commit');
      }
    });

    it('a unit that throws a non-Error value rejects with that value', async () => {
      const settled = await Promise.allSettled([
        s.handle.transact((trx) => insertAccount(trx, 'odd_a')),
        s.handle.transact(async (trx) => {
          await insertAccount(trx, 'odd_b');
          throw 'plain string';
        }),
      ]);
      assert.deepEqual(settled, [
        { status: 'fulfilled', value: undefined },
        { status: 'rejected', reason: 'plain string' },
      ]);
      assert.deepEqual(await s.outside.ids('odd_'), ['odd_a']);
    });

    it('a unit that reads through the plain handle (deps.db) fails at once instead of deadlocking', async () => {
      const started = performance.now();
      await assert.rejects(
        s.handle.transact(async (trx) => {
          await insertAccount(trx, 'plain_read');
          return countInside(s.handle.db, 'plain_');
        }),
        (e: Error) => e.name === 'UnitMisuseError' && /plain database handle/.test(e.message),
      );
      // A deadlock would last until PostgreSQL's 5 s lock_timeout (forever on SQLite); the bound leaves
      // room for a loaded machine.
      assert.ok(performance.now() - started < 4000, `${Math.round(performance.now() - started)} ms`);
      assert.equal(await s.outside.count('plain_'), 0);
      // Later requests are not stuck behind it.
      assert.equal(await countInside(s.handle.db, 'plain_'), 0);
      assert.equal(await s.handle.transact(async (trx) => (await insertAccount(trx, 'plain_after'), 'ok')), 'ok');
    });

    it('a nested transact throws at once and leaves nothing behind', async () => {
      await assert.rejects(
        s.handle.transact(async (trx) => {
          await insertAccount(trx, 'nested_outer');
          return s.handle.transact((inner) => insertAccount(inner, 'nested_inner'));
        }),
        (e: Error) => e.name === 'UnitMisuseError' && /transact\(\) was called inside a unit/.test(e.message),
      );
      assert.equal(await s.outside.count('nested_'), 0);
    });

    it('a transact on a closed store rejects instead of hanging', async () => {
      const other = await openStore(dialect);
      await other.handle.close();
      await assert.rejects(other.handle.transact((trx) => insertAccount(trx, 'closed_a')));
      // A second call is not stuck behind the first one either.
      await assert.rejects(other.handle.transact((trx) => insertAccount(trx, 'closed_b')));
      await other.close().catch(() => undefined);
    });

    if (dialect === 'sqlite') {
      it('sqlite: units of one turn share one transaction (each sees the earlier ones; nothing is visible outside until all commit)', async () => {
        const inside: number[] = [];
        const outside: number[] = [];
        const results = await Promise.all(
          range(5).map((i) =>
            s.handle.transact(async (trx) => {
              await insertAccount(trx, `batch_${pad(i)}`);
              inside.push(await countInside(trx, 'batch_'));
              outside.push(await s.outside.count('batch_'));
              return i;
            }),
          ),
        );
        assert.deepEqual(results, range(5));
        assert.deepEqual(inside, [1, 2, 3, 4, 5], 'each unit sees the writes of the units before it in the turn');
        // With a transaction per unit the other connection would have seen 0, 1, 2, 3, 4.
        assert.deepEqual(outside, [0, 0, 0, 0, 0], 'no unit of the batch was committed before the others ran');
        assert.equal(await s.outside.count('batch_'), 5);
      });

      it('sqlite: units started in a later turn run in a later transaction', async () => {
        const outside: number[] = [];
        const first = s.handle.transact((trx) => insertAccount(trx, 'turn_a'));
        await first;
        await s.handle.transact(async (trx) => {
          outside.push(await s.outside.count('turn_'));
          await insertAccount(trx, 'turn_b');
        });
        assert.deepEqual(outside, [1], 'the first turn had committed before the second began');
        assert.equal(await s.outside.count('turn_'), 2);
      });

      it('sqlite: a failing unit is rolled back to its savepoint; every unit runs exactly once and the others commit', async () => {
        const runs = range(4).map(() => 0);
        const boom = new Error('unit 2 fails');
        const settled = await Promise.allSettled(
          range(4).map((i) =>
            s.handle.transact(async (trx) => {
              runs[i]! += 1;
              await trx
                .insertInto('events')
                .values({ id: `evt_once_${i}`, account_id: 'acct_x', mode: 'test', type: 'form.created', form_id: 'form_x', form_created_at: NOW, form: '{}', created_at: NOW })
                .execute();
              if (i === 2) throw boom;
              return i;
            }),
          ),
        );
        assert.deepEqual(settled.map((r) => r.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
        assert.equal((settled[2] as PromiseRejectedResult).reason, boom);
        assert.deepEqual(runs, [1, 1, 1, 1], 'no unit ran twice (its JavaScript side effects happen once)');
        const rows = s.sqliteFile!.prepare(`select id from events where id like 'evt_once_%' order by id`).pluck().all();
        assert.deepEqual(rows, ['evt_once_0', 'evt_once_1', 'evt_once_3']);
      });

      it('sqlite: 200 units of which one fails commit in one transaction, not 200', async () => {
        const before = s.sqliteFile!.pragma('data_version', { simple: true }) as number;
        let commits = 0;
        // data_version changes for this connection once per commit made by another connection.
        const settled = await Promise.allSettled(
          range(200).map((i) =>
            s.handle.transact(async (trx) => {
              await insertAccount(trx, `two_hundred_${pad(i)}`);
              if (i === 100) throw new Error('one client error');
            }),
          ),
        );
        const after = s.sqliteFile!.pragma('data_version', { simple: true }) as number;
        if (after !== before) commits = 1;
        assert.equal(settled.filter((r) => r.status === 'rejected').length, 1);
        assert.equal(await s.outside.count('two_hundred_'), 199);
        assert.equal(commits, 1);
        // One commit means one WAL commit frame set: the other connection saw exactly one change.
        assert.equal(after - before, 1, 'the batch committed once');
      });

      it('sqlite: while another connection holds the write lock, units reject with SQLITE_BUSY after one wait (not one per unit), and the handle recovers', async () => {
        // Shorten the wait so the lock times out quickly (the handle's default is 5 s).
        await sql`pragma busy_timeout = 100`.execute(s.handle.db);
        s.sqliteFile!.exec('begin immediate');
        let settled: PromiseSettledResult<number>[];
        const started = performance.now();
        try {
          settled = await Promise.allSettled(range(5).map((i) => s.handle.transact(async (trx) => (await insertAccount(trx, `busy_${i}`), i))));
        } finally {
          s.sqliteFile!.exec('rollback');
          await sql`pragma busy_timeout = 5000`.execute(s.handle.db);
        }
        const waited = performance.now() - started;
        for (const r of settled) {
          assert.equal(r.status, 'rejected');
          assert.equal((r.reason as { code?: string }).code, 'SQLITE_BUSY');
        }
        // One batch, one wait for the lock: retrying unit by unit would wait (5 + 1) × 100 ms.
        assert.ok(waited < 400, `waited ${waited.toFixed(0)} ms`);
        assert.equal(await s.outside.count('busy_'), 0);
        assert.equal(await s.handle.transact(async (trx) => (await insertAccount(trx, 'busy_after'), 'ok')), 'ok');
        assert.deepEqual(await s.outside.ids('busy_'), ['busy_after']);
      });

      it('sqlite: a unit that swallows an error which rolled the transaction back fails; no later statement of it runs in autocommit; units before it reject retryably, units after it commit once', async () => {
        await s.handle.transact((trx) => insertAccount(trx, 'swallow_taken'));
        const runs = [0, 0, 0];
        const settled = await Promise.allSettled(
          ['swallow_a', 'swallow_b', 'swallow_c'].map((id, i) =>
            s.handle.transact(async (trx) => {
              runs[i]! += 1;
              await insertAccount(trx, id);
              if (i === 1) {
                // OR ROLLBACK ends the whole transaction on the conflict; the unit then carries on and writes again.
                const a = account('swallow_taken');
                await sql`insert or rollback into accounts (id, name, plan, created_at, updated_at) values (${a.id}, ${a.name}, ${a.plan}, ${NOW}, ${NOW})`.execute(trx).catch(() => undefined);
                await insertAccount(trx, 'swallow_again');
              }
              return id;
            }),
          ),
        );
        assert.deepEqual(settled.map((r) => r.status), ['rejected', 'rejected', 'fulfilled']);
        assert.equal((settled[0] as PromiseRejectedResult).reason.name, 'BatchAbortedError');
        assert.equal((settled[0] as PromiseRejectedResult).reason.retryable, true);
        assert.match(String((settled[1] as PromiseRejectedResult).reason), /shared transaction ended/);
        assert.deepEqual(runs, [1, 1, 1]);
        // Neither the write after the rollback (it would have autocommitted) nor the lost unit's write exists.
        assert.deepEqual(await s.outside.ids('swallow_'), ['swallow_c', 'swallow_taken']);
        assert.equal(await s.handle.transact(async (trx) => (await insertAccount(trx, 'swallow_later'), 'ok')), 'ok');
      });
    }
  });
}

/** Compile-time rules (never called; `npm run typecheck` checks them): the two transacts do not mix. */
export function transactTypeRules(handle: DatabaseHandle): void {
  // @ts-expect-error -- a replayable transact is not a Transact: a use case cannot be handed one as `transact`
  const durable: Transact = handle.transactReplayable;
  // @ts-expect-error -- nor the other way round
  const replayable: ReplayableTransact = handle.transact;
  // @ts-expect-error -- a plain function is neither: only the store (or a wrapper that says so) makes one
  const plain: Transact = async <T>(unit: (trx: Trx) => Promise<T>) => unit(undefined as unknown as Trx);
  void [durable, replayable, plain];
}
