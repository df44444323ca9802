import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { migrateToLatest, type DatabaseHandle } from '../../src/db/database.js';
import { namedStatementPool } from '../../src/db/pg-named-statements.js';
import { claimJobs, findJob, insertJob, markJobDoneAndClaimNext } from '../../src/db/repositories/outbox.js';
import { createPgSchema, DIALECTS, dropPgSchema, PG_URL, openStore, withPg } from '../harness.js';
import { isDatabaseBusy } from '../../src/http/database-busy.js';

// The worker's claim (outbox.ts): due waiting jobs and expired leases, earliest run_at first, up to the
// limit; on PostgreSQL also the statement that marks a job done and claims the next, and the named
// (prepared) statements every PostgreSQL connection runs unless PG_PREPARED_STATEMENTS=off
// (pg-named-statements.ts).

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
    schema = await createPgSchema('named_');
    await withPg((c) => c.query(`create table ${schema}.items (id int)`));
  });
  after(() => dropPgSchema(schema));

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
