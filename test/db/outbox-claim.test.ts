import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { migrateToLatest, type DatabaseHandle } from '../../src/db/database.js';
import { namedStatementPool } from '../../src/db/pg-named-statements.js';
import { outcomeUpdate } from '../../src/db/outcome-update.js';
import { outcomeUpdates } from '../../src/outbox/job.js';
import { claimJobs, findJob, insertJob, markJobDoneAndClaimNext, settleInOneStatement } from '../../src/db/repositories/outbox.js';
import { DIALECTS, PG_URL, openStore, withPg } from '../harness.js';
import { isDatabaseBusy } from '../../src/http/database-busy.js';

// The worker's claim (outbox.ts): due waiting jobs and expired leases, earliest run_at first, up to the
// limit; on PostgreSQL also the settle that marks a job done and claims the next in one statement, and
// the named (prepared) statements every PostgreSQL connection runs (pg-named-statements.ts).

const T = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const NOW = T(30);

async function addJob(handle: DatabaseHandle, id: string, runAt: string): Promise<void> {
  await handle.transact((trx) => insertJob(trx, { id, account_id: 'acct_claim', mode: 'test', kind: 'outbox.sweep', version: 1, payload: '{}', run_at: runAt, created_at: runAt }));
}

async function setRow(handle: DatabaseHandle, id: string, set: { status: 'running' | 'done' | 'failed'; locked_until?: string | null; attempts?: number }): Promise<void> {
  await handle.transact(async (trx) => {
    await trx.updateTable('outbox').set(set).where('id', '=', id).execute();
  });
}

// Outcome updates for these tests (names are global: declared once, at module level).
const secretSet = outcomeUpdate('test-secret-set', 'service_secrets', (db, a: { name: string; value: string }) => db.updateTable('service_secrets').set({ value: a.value }).where('name', '=', a.name));
const accountRenamed = outcomeUpdate('test-account-renamed', 'accounts', (db, a: { id: string; name: string }) => db.updateTable('accounts').set({ name: a.name }).where('id', '=', a.id));
const collidingSet = outcomeUpdate('test-colliding-args', 'service_secrets', (db, a: { id: string; now: string; attempts: number }) =>
  db.updateTable('service_secrets').set({ value: sql<string>`${a.now} || ' ' || ${a.attempts}` }).where('name', '=', a.id));

describe('outcome updates', () => {
  it('refuses a second update under a name already declared', () => {
    assert.throws(() => outcomeUpdate('test-secret-set', 'service_secrets', (db, a: { name: string }) => db.updateTable('service_secrets').set({ value: 'x' }).where('name', '=', a.name)), /already declared/);
  });

  it('refuses names that could not key a statement, an undefined argument, and two updates of one table in an outcome', () => {
    for (const bad of ['', 'Upper', 'a.b', 'a+b', 'with space']) {
      assert.throws(() => outcomeUpdate(bad, 'service_secrets', (db, a: { name: string }) => db.updateTable('service_secrets').set({ value: 'x' }).where('name', '=', a.name)), /lower-case letters/, JSON.stringify(bad));
    }
    assert.throws(() => secretSet.with({ name: 'x', value: undefined as unknown as string }), /argument value is undefined/);
    assert.throws(() => outcomeUpdates(secretSet.with({ name: 'a', value: '1' }), secretSet.with({ name: 'b', value: '2' })), /updates service_secrets twice/);
  });

  it('runs alone in a transaction with the same statement, and counts the rows it changed', async () => {
    const store = await openStore('sqlite', 'outcome');
    try {
      await migrateToLatest(store.handle);
      await store.handle.transact(async (trx) => {
        await trx.insertInto('service_secrets').values({ name: 'alone', value: 'before', created_at: NOW }).execute();
      });
      assert.equal(await store.handle.transact((trx) => secretSet.run(trx, { name: 'alone', value: 'after' })), 1);
      assert.equal(await store.handle.transact((trx) => secretSet.run(trx, { name: 'nobody', value: 'after' })), 0);
      const row = await store.handle.db.selectFrom('service_secrets').select('value').where('name', '=', 'alone').executeTakeFirst();
      assert.equal(row?.value, 'after');
    } finally {
      await store.close();
    }
  });
});

/** Compile-time rules (never called): the statement that settles a job may not update the outbox again. */
export function outcomeUpdateTypeRules(): void {
  // @ts-expect-error -- the outbox is not a table an outcome update may touch
  outcomeUpdate('never-outbox', 'outbox', (db, a: { id: string }) => db.updateTable('outbox').set({ status: 'done' }).where('id', '=', a.id));
}

for (const dialect of DIALECTS) {
  describe(`outbox claim (${dialect})`, () => {
    let store: Awaited<ReturnType<typeof openStore>>;
    let handle: DatabaseHandle;
    const claim = (limit: number, now = NOW) =>
      handle.transactReplayable((trx) => claimJobs(trx, { now, leaseUntil: T(90), limit, workerId: 'w1', skipLocked: dialect === 'postgres' }));

    before(async () => {
      store = await openStore(dialect, 'claim');
      handle = store.handle;
      await migrateToLatest(handle);
    });
    after(() => store.close());
    beforeEach(async () => {
      await handle.transact(async (trx) => {
        await trx.deleteFrom('outbox').execute();
      });
    });

    it('takes due waiting jobs and expired leases, earliest run_at first, up to the limit', async () => {
      await addJob(handle, 'job_later', T(20));
      await addJob(handle, 'job_first', T(5));
      await addJob(handle, 'job_not_due', T(40));
      await addJob(handle, 'job_retry', T(10));
      await setRow(handle, 'job_retry', { status: 'failed', attempts: 1 });
      await addJob(handle, 'job_expired', T(1));
      await setRow(handle, 'job_expired', { status: 'running', locked_until: T(29), attempts: 1 });
      await addJob(handle, 'job_leased', T(0));
      await setRow(handle, 'job_leased', { status: 'running', locked_until: T(31), attempts: 1 });
      await addJob(handle, 'job_done', T(0));
      await setRow(handle, 'job_done', { status: 'done', attempts: 1 });

      const first = await claim(3);
      assert.deepEqual(first.map((r) => r.id).sort(), ['job_expired', 'job_first', 'job_retry']);
      for (const r of first) {
        assert.equal(r.status, 'running');
        assert.equal(r.locked_by, 'w1');
        assert.equal(r.locked_until, T(90));
      }
      assert.equal(first.find((r) => r.id === 'job_expired')?.attempts, 2);
      assert.equal(first.find((r) => r.id === 'job_first')?.attempts, 1);
      assert.deepEqual((await claim(3)).map((r) => r.id), ['job_later']);
      assert.deepEqual(await claim(3), []);
      assert.equal((await findJob(handle.db, 'job_leased'))?.attempts, 1);
      assert.equal((await findJob(handle.db, 'job_done'))?.status, 'done');
    });

    it('orders an expired lease among waiting jobs by run_at', async () => {
      await addJob(handle, 'job_a', T(2));
      await addJob(handle, 'job_b', T(4));
      await addJob(handle, 'job_expired', T(3));
      await setRow(handle, 'job_expired', { status: 'running', locked_until: T(29), attempts: 1 });
      assert.deepEqual((await claim(1)).map((r) => r.id), ['job_a']);
      assert.deepEqual((await claim(1)).map((r) => r.id), ['job_expired']);
      assert.deepEqual((await claim(1)).map((r) => r.id), ['job_b']);
    });

    if (dialect !== 'postgres') return;

    it('marks a held job done and claims the next in one statement', async () => {
      await addJob(handle, 'job_held', T(1));
      await addJob(handle, 'job_next', T(2));
      const [held] = await claim(1);
      assert.ok(held);
      assert.equal(held.id, 'job_held');
      const r = await handle.transactReplayable((trx) => markJobDoneAndClaimNext(trx, { id: 'job_held', attempts: held.attempts }, { now: NOW, leaseUntil: T(90), workerId: 'w2' }));
      assert.equal(r.held, true);
      assert.equal(r.next?.id, 'job_next');
      assert.equal(r.next?.locked_by, 'w2');
      assert.equal(r.next?.attempts, 1);
      assert.equal((await findJob(handle.db, 'job_held'))?.status, 'done');
      // Nothing left to claim: held, no next.
      const again = await handle.transactReplayable((trx) => markJobDoneAndClaimNext(trx, { id: 'job_next', attempts: 1 }, { now: NOW, leaseUntil: T(90), workerId: 'w2' }));
      assert.deepEqual(again, { held: true, next: undefined });
    });

    it('reports a lost lease, and never claims the job it settles', async () => {
      await addJob(handle, 'job_mine', T(1));
      // Our lease ran out; nothing else is due.
      await setRow(handle, 'job_mine', { status: 'running', locked_until: T(29), attempts: 1 });
      const stale = await handle.transactReplayable((trx) => markJobDoneAndClaimNext(trx, { id: 'job_mine', attempts: 2 }, { now: NOW, leaseUntil: T(90), workerId: 'w1' }));
      assert.deepEqual(stale, { held: false, next: undefined });
      const mine = await handle.transactReplayable((trx) => markJobDoneAndClaimNext(trx, { id: 'job_mine', attempts: 1 }, { now: NOW, leaseUntil: T(90), workerId: 'w1' }));
      assert.deepEqual(mine, { held: true, next: undefined });
      const row = await findJob(handle.db, 'job_mine');
      assert.equal(row?.status, 'done');
      assert.equal(row?.attempts, 1);
    });

    it('claims nothing when the lease was lost, even if the caller commits', async () => {
      await addJob(handle, 'job_lost', T(1));
      await addJob(handle, 'job_waiting', T(2));
      await setRow(handle, 'job_lost', { status: 'running', locked_until: T(29), attempts: 2 });
      // Fenced with an attempt count the row no longer has: not held, and committed as it is.
      const stale = await handle.transactReplayable((trx) => markJobDoneAndClaimNext(trx, { id: 'job_lost', attempts: 1 }, { now: NOW, leaseUntil: T(90), workerId: 'w1' }));
      assert.deepEqual(stale, { held: false, next: undefined });
      const waiting = await findJob(handle.db, 'job_waiting');
      assert.equal(waiting?.status, 'pending');
      assert.equal(waiting?.attempts, 0);
      assert.equal(waiting?.locked_by, null);
    });

    const secretValue = async (name: string) => (await handle.db.selectFrom('service_secrets').select('value').where('name', '=', name).executeTakeFirst())?.value;
    const addSecret = (name: string) => handle.transact(async (trx) => {
      await trx.insertInto('service_secrets').values({ name, value: 'before', created_at: NOW }).execute();
    });

    it('settles in one statement: the job done, the next claimed and the outcome updates written', async () => {
      await addJob(handle, 'job_settled', T(1));
      await addJob(handle, 'job_after', T(2));
      await addSecret('outcome_a');
      await handle.transact(async (trx) => {
        await trx.deleteFrom('accounts').where('id', '=', 'acct_outcome').execute();
        await trx.insertInto('accounts').values({ id: 'acct_outcome', name: 'before', email: null, plan: 'trial', monthly_limit: null, per_minute_limit: null, created_at: NOW, updated_at: NOW }).execute();
      });
      const [held] = await claim(1);
      assert.equal(held?.id, 'job_settled');
      const one = handle.oneStatement;
      assert.ok(one, 'PostgreSQL offers one-statement pools');
      const r = await settleInOneStatement(one.replayable, { id: 'job_settled', attempts: 1 }, { now: NOW, leaseUntil: T(90), workerId: 'w3' }, [
        secretSet.with({ name: 'outcome_a', value: 'first' }),
        accountRenamed.with({ id: 'acct_outcome', name: 'second' }),
      ]);
      assert.equal(r.held, true);
      assert.equal(r.next?.id, 'job_after');
      assert.equal(r.next?.locked_by, 'w3');
      assert.equal((await findJob(handle.db, 'job_settled'))?.status, 'done');
      assert.equal(await secretValue('outcome_a'), 'first');
      assert.equal((await handle.db.selectFrom('accounts').select('name').where('id', '=', 'acct_outcome').executeTakeFirst())?.name, 'second');
      // No outcome: the same statement without updates.
      assert.deepEqual(await settleInOneStatement(one.durable, { id: 'job_after', attempts: 1 }, { now: NOW, leaseUntil: T(90), workerId: 'w3' }, []), { held: true, next: undefined });
      assert.equal((await findJob(handle.db, 'job_after'))?.status, 'done');
    });

    it('settles in one statement when an outcome update matches no row, and keeps its arguments apart from the lease\'s', async () => {
      await addJob(handle, 'job_norow', T(1));
      await addSecret('now');
      const [held] = await claim(1);
      assert.equal(held?.id, 'job_norow');
      // Arguments named like the lease's (id, now, attempts) land in the update, not in the lease's places.
      const r = await settleInOneStatement(handle.oneStatement!.durable, { id: 'job_norow', attempts: 1 }, { now: NOW, leaseUntil: T(90), workerId: 'w1' }, [
        collidingSet.with({ id: 'now', now: 'set by the outcome', attempts: 7 }),
      ]);
      assert.deepEqual(r, { held: true, next: undefined });
      assert.equal(await secretValue('now'), 'set by the outcome 7');
      const row = await findJob(handle.db, 'job_norow');
      assert.equal(row?.status, 'done');
      assert.equal(row?.attempts, 1);
      assert.equal(row?.updated_at, NOW);
      // An update that matches nothing does not stop the job from settling.
      await addJob(handle, 'job_nomatch', T(2));
      await claim(1);
      assert.deepEqual(await settleInOneStatement(handle.oneStatement!.durable, { id: 'job_nomatch', attempts: 1 }, { now: NOW, leaseUntil: T(90), workerId: 'w1' }, [secretSet.with({ name: 'nobody', value: 'x' })]), { held: true, next: undefined });
      assert.equal((await findJob(handle.db, 'job_nomatch'))?.status, 'done');
    });

    it('writes none of a one-statement settle when the lease was lost', async () => {
      await addJob(handle, 'job_gone', T(1));
      await addJob(handle, 'job_untouched', T(2));
      await addSecret('outcome_lost');
      await setRow(handle, 'job_gone', { status: 'running', locked_until: T(29), attempts: 2 });
      const r = await settleInOneStatement(handle.oneStatement!.durable, { id: 'job_gone', attempts: 1 }, { now: NOW, leaseUntil: T(90), workerId: 'w1' }, [secretSet.with({ name: 'outcome_lost', value: 'written' })]);
      assert.deepEqual(r, { held: false, next: undefined });
      assert.equal(await secretValue('outcome_lost'), 'before');
      assert.equal((await findJob(handle.db, 'job_gone'))?.status, 'running');
      assert.equal((await findJob(handle.db, 'job_untouched'))?.status, 'pending');
    });

    it('runs a repeated statement prepared on its connection', async () => {
      const prepared = await handle.transact(async (trx) => {
        for (let i = 0; i < 3; i++) await sql`select ${i}::int as n from outbox limit 1`.execute(trx);
        const r = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like '%from outbox limit 1'`.execute(trx);
        return r.rows[0]?.n;
      });
      assert.equal(prepared, 1);
    });
  });
}

describe('named statements (postgres)', () => {
  let schema: string;
  before(async () => {
    schema = `t_${process.pid}_named_${Math.random().toString(36).slice(2, 8)}`;
    await withPg((c) => c.query(`create schema ${schema}; create table ${schema}.items (id int)`));
  });
  after(() => withPg((c) => c.query(`drop schema ${schema} cascade`)));

  const openPool = () => namedStatementPool(new pg.Pool({ connectionString: PG_URL, max: 1, options: `-c search_path=${schema}` }));
  const preparedCount = async (client: PostgresPoolClient) => (await client.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements', [])).rows[0]?.n;

  it('names at most a bounded number of statements per connection', async () => {
    const pool = openPool();
    try {
      const client = await pool.connect();
      for (let i = 0; i < 250; i++) {
        for (let k = 0; k < 2; k++) await client.query(`select ${i} as v`, []);
      }
      // 200 named; the count query itself runs unnamed (seen once).
      assert.equal(await preparedCount(client), 200);
      client.release();
    } finally {
      await pool.end();
    }
  });

  it('drops a connection whose prepared statement the schema changed under', async () => {
    const pool = openPool();
    try {
      let client = await pool.connect();
      for (let k = 0; k < 2; k++) await client.query('select * from items', []);
      await withPg((c) => c.query(`alter table ${schema}.items add column name text`));
      // Told as "retry" (a 503 with Retry-After on the API), with PostgreSQL's own error as the cause.
      await assert.rejects(client.query('select * from items', []), (e: { code?: string; cause?: { code?: string } }) => e.code === 'FORMSIGN_STALE_STATEMENT' && e.cause?.code === '0A000' && isDatabaseBusy(e));
      client.release();
      // A new connection: the statement is prepared afresh for the new columns.
      client = await pool.connect();
      const r = await client.query<{ id: number; name: string }>('select * from items', []);
      assert.deepEqual(r.rows, []);
      client.release();
    } finally {
      await pool.end();
    }
  });
});
