import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest, type DatabaseHandle } from '../../src/db/database.js';
import { claimJobs, insertJob, markJobDone } from '../../src/db/repositories/outbox.js';
import { durableTransact, replayableTransact, type ReplayableTransact, type Transact, type Trx } from '../../src/db/handles.js';
import type { Partition } from '../../src/lib/partition.js';
import { retryDelayMs } from '../../src/outbox/backoff.js';
import { createDispatcher, type DispatcherOptions, type Worker } from '../../src/outbox/dispatcher.js';
import { enqueue } from '../../src/outbox/enqueue.js';
import type { JobContext, JobFailure } from '../../src/outbox/job.js';
import { formSeal } from '../../src/outbox/jobs/form-seal.job.js';
import { messageDeliver } from '../../src/outbox/jobs/message-deliver.job.js';
import { retryJobNow } from '../../src/outbox/operator.js';
import { listenForJobs } from '../../src/outbox/pg-listener.js';
import { SCHEDULED_JOBS, type JobHandlers } from '../../src/outbox/registry.js';
import { acquireSqliteWorkerLock, WorkerLockedError } from '../../src/outbox/sqlite-worker-lock.js';
import { transactWithWakeup } from '../../src/outbox/wakeup.js';
import { DIALECTS, openStore, PG_URL } from '../harness.js';
import { FakeClock } from './support/sending.js';

const T0 = '2026-03-01T12:00:00.000Z';

/** A job outcome for these tests: one write, committed with the settle or not at all. */
const setSecret = (value: string) => async (trx: Trx): Promise<void> => {
  await trx.updateTable('service_secrets').set({ value }).where('name', '=', 'dispatch_outcome').execute();
};
const p: Partition = { accountId: 'acct_worker', mode: 'test' };

/** A message.deliver handler whose behaviour each test sets; it records every call. */
/** The store's transacts, each noting its use in `used`. */
const spyDurable = (used: string[], t: Transact): Transact => durableTransact((unit) => { used.push('durable'); return t(unit); });
const spyReplayable = (used: string[], t: ReplayableTransact): ReplayableTransact => replayableTransact((unit) => { used.push('replayable'); return t(unit); });

function scriptedHandlers() {
  const calls: Array<{ payload: { message_id: string }; ctx: JobContext }> = [];
  const failures: JobFailure[] = [];
  const state = { behaviour: async (_n: number): Promise<void> => undefined };
  const handlers: JobHandlers = {
    'message.deliver': {
      async run(payload, ctx) {
        calls.push({ payload, ctx });
        await state.behaviour(calls.length);
      },
      async failed(_trx, _payload, _ctx, failure) {
        failures.push(failure);
      },
    },
    'forms.expire': { run: async () => undefined },
    'idempotency.sweep': { run: async () => undefined },
    'form.seal': { run: async () => undefined },
    'form.remind': { run: async () => undefined },
    'form.purge': { run: async () => undefined },
    'forms.retention': { run: async () => undefined },
    'activity.sweep': { run: async () => undefined },
    'webhook.deliver': { run: async () => undefined },
    'webhook.sweep': { run: async () => undefined },
    'outbox.sweep': { run: async () => undefined },
    'bulk_send.run': { run: async () => undefined },
  };
  return { handlers, calls, failures, state };
}

for (const dialect of DIALECTS) {
  describe(`job dispatcher (${dialect})`, () => {
    let store: Awaited<ReturnType<typeof openStore>>;
    let handle: DatabaseHandle;
    let clock: FakeClock;
    let script: ReturnType<typeof scriptedHandlers>;
    let worker: Worker;
    const made: Worker[] = [];

    const dispatcher = (o: Partial<DispatcherOptions> = {}) => {
      const w = createDispatcher({ db: handle.db, transact: handle.transact, dialect: handle.dialect, clock, handlers: script.handlers, random: () => 0.5, ...o });
      made.push(w);
      return w;
    };
    const job = (id: string) => handle.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const add = (message_id: string, runAt?: string, transact: Transact = handle.transact) =>
      transact((trx) => enqueue(trx, p, messageDeliver, { message_id }, { now: clock.now().toISOString(), runAt }));

    before(async () => {
      store = await openStore(dialect, 'dispatch');
      handle = store.handle;
      await migrateToLatest(handle);
    });
    after(async () => {
      for (const w of made) await w.stop();
      await store.close();
    });
    beforeEach(async () => {
      for (const w of made.splice(0)) await w.stop();
      await handle.transact((trx) => trx.deleteFrom('outbox').execute().then(() => undefined));
      clock = new FakeClock(Date.parse(T0));
      script = scriptedHandlers();
      worker = dispatcher();
    });

    it('runs a due job once with its payload and marks it done', async () => {
      const id = await add('msg_a');
      assert.equal(await worker.runDue(), 1 + SCHEDULED_JOBS.length, 'the job and the scheduled sweeps');
      assert.deepEqual(script.calls.map((c) => [c.payload.message_id, c.ctx.attempt, c.ctx.jobId, c.ctx.partition]), [['msg_a', 1, id, p]]);
      const row = await job(id);
      assert.equal(row.status, 'done');
      assert.equal(row.locked_until, null);
      assert.equal(row.locked_by, worker.id);
      assert.equal(await worker.runDue(), 0);
      assert.equal(script.calls.length, 1);
    });

    it('claims, and settles jobs whose outcome is replayable, through transactReplayable; other outcomes durably', async () => {
      const used: string[] = [];
      const w = dispatcher({ transact: spyDurable(used, handle.transact), transactReplayable: spyReplayable(used, handle.transactReplayable) });
      await add('msg_replayable');
      await w.runDue();
      assert.equal(script.calls.length, 1);
      // Claims (and the message job's settle, which claims the next) never wait for the disk; the
      // scheduled sweeps' outcomes (an expired form is something a client sees) do.
      const settles = used.filter((u) => u === 'durable').length;
      assert.equal(settles, SCHEDULED_JOBS.length + 1, `one durable commit per scheduled job, plus ensuring them: ${used.join(',')}`);
      assert.ok(used.filter((u) => u === 'replayable').length >= 2, `the claim and the message job's settle: ${used.join(',')}`);
      // The definitions say which outcomes may be replayed.
      assert.equal(messageDeliver.replayableOutcome, true);
      for (const def of SCHEDULED_JOBS) assert.equal(def.replayableOutcome, undefined, `${def.name} settles durably`);
    });

    it('runs seals within a budget of their own: a backlog of seals leaves the deliveries their slots, and the other way round', async () => {
      // Three seals due first, then two messages; one slot for each budget.
      for (const n of [1, 2, 3]) await handle.transact((trx) => enqueue(trx, p, formSeal, { form_id: `frm_${n}` }, { now: clock.now().toISOString(), runAt: new Date(Date.parse(T0) - 10 + n).toISOString() }));
      await add('msg_beside_seals');
      await add('msg_second');
      let releaseSeal!: () => void;
      const gate = new Promise<void>((r) => (releaseSeal = r));
      const order: string[] = [];
      let sealsAtOnce = 0;
      let mostSeals = 0;
      const handlers: JobHandlers = {
        ...script.handlers,
        'form.seal': { run: async (payload) => {
          mostSeals = Math.max(mostSeals, ++sealsAtOnce);
          order.push(`seal ${payload.form_id}`);
          if (payload.form_id === 'frm_1') await gate;
          sealsAtOnce--;
        } },
        'message.deliver': { run: async (payload) => {
          order.push(payload.message_id);
          // Both messages run while the first seal still holds the seal budget's one slot.
          if (payload.message_id === 'msg_second') releaseSeal();
        } },
      };
      const w = dispatcher({ handlers, concurrency: 1, pdfConcurrency: 1 });
      clock.advance(1);
      await w.runDue();
      assert.deepEqual(order.filter((o) => o.startsWith('msg')), ['msg_beside_seals', 'msg_second']);
      assert.ok(order.indexOf('msg_second') < order.indexOf('seal frm_2'), `the messages did not wait for the seals: ${order.join(', ')}`);
      assert.equal(mostSeals, 1, 'one seal at a time (pdfConcurrency 1)');
      assert.deepEqual(order.filter((o) => o.startsWith('seal')), ['seal frm_1', 'seal frm_2', 'seal frm_3'], 'the seals in their order, each once');
      const rows = await handle.db.selectFrom('outbox').select(['kind', 'status']).where('kind', 'in', ['form.seal', 'message.deliver']).execute();
      assert.deepEqual(rows.map((r) => r.status), rows.map(() => 'done'));
    });

    const secret = async () => (await handle.db.selectFrom('service_secrets').select('value').where('name', '=', 'dispatch_outcome').executeTakeFirst())?.value;
    const resetSecret = () => handle.transact(async (trx) => {
      await trx.deleteFrom('service_secrets').where('name', '=', 'dispatch_outcome').execute();
      await trx.insertInto('service_secrets').values({ name: 'dispatch_outcome', value: 'before', created_at: T0 }).execute();
    });

    it('writes a job\'s outcome in the transaction that marks it done and claims the next, on the transact its definition picks', async () => {
      await resetSecret();
      const used: string[] = [];
      let claimedInSettle: string | undefined;
      const handlers: JobHandlers = { ...script.handlers, 'message.deliver': { run: async (payload) => {
        if (payload.message_id !== 'msg_outcome') return;
        return async (trx) => {
          await setSecret('after')(trx);
          // The settle already marked this job done (and claimed the next) in this transaction.
          claimedInSettle = (await trx.selectFrom('outbox').select('status').where('id', '=', first).executeTakeFirstOrThrow()).status;
        };
      } } };
      const w = dispatcher({ handlers, concurrency: 1, transact: spyDurable(used, handle.transact), transactReplayable: spyReplayable(used, handle.transactReplayable) });
      const first = await add('msg_outcome');
      const second = await add('msg_after_outcome', new Date(Date.parse(T0) + 1).toISOString());
      clock.advance(1);
      await w.runDue();
      assert.equal(await secret(), 'after', 'the outcome was written');
      assert.equal(claimedInSettle, 'done', 'in the settling transaction, after the job was marked done');
      assert.equal((await job(first)).status, 'done');
      assert.equal((await job(second)).status, 'done', 'the job claimed with the settle ran in the freed slot');
      // message.deliver's outcome is replayable: settled through transactReplayable, never durably.
      assert.equal(used.filter((u) => u === 'durable').length, SCHEDULED_JOBS.length + 1, `only the scheduled jobs and ensuring them are durable: ${used.join(',')}`);
    });

    it('writes no outcome and no settle when the lease was taken over during the attempt', async () => {
      await resetSecret();
      const id = await add('msg_taken_over');
      const handlers: JobHandlers = { ...script.handlers, 'message.deliver': {
        run: async () => {
          // Another worker took the job over (our lease ran out): the attempt count moved on.
          await handle.transact(async (trx) => {
            await trx.updateTable('outbox').set({ attempts: sql`attempts + 1`, locked_by: 'other-worker' }).where('id', '=', id).execute();
          });
          return setSecret('written anyway');
        },
      } };
      const logged: string[] = [];
      const w = dispatcher({ handlers, log: (l) => logged.push(l) });
      await w.runDue();
      assert.equal(await secret(), 'before', 'the outcome was not written');
      const row = await job(id);
      assert.equal(row.status, 'running');
      assert.equal(row.locked_by, 'other-worker');
      assert.ok(logged.some((l) => l.includes('lease lost')), logged.join('\n'));
    });

    if (dialect === 'postgres') {
      it('transactReplayable commits with synchronous_commit off on connections of its own; transact waits for the disk', async () => {
        const setting = (t: Transact | ReplayableTransact) => t(async (trx) => (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(trx)).rows[0]?.synchronous_commit);
        assert.equal(await setting(handle.transactReplayable), 'off');
        assert.equal(await setting(handle.transact), 'on');
        assert.equal(await setting(handle.transact), 'on', 'the main pool never commits relaxed');
      });
    }

    it('a failing feed (the webhook publisher) does not stop other jobs from being claimed', async () => {
      const logged: string[] = [];
      const w = dispatcher({ pollMs: 60_000, feed: () => Promise.reject(new Error('publisher broke')), log: (l) => logged.push(l) });
      const id = await add('msg_despite_feed');
      await w.start();
      const t = performance.now();
      while ((await job(id)).status !== 'done') {
        assert.ok(performance.now() - t < 15_000, 'the job ran although the feed failed');
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.ok(logged.some((l) => l.includes('publishing events failed: publisher broke')), logged.join('\n'));
    });

    it('a job due later waits for its time (injected clock, no sleeping)', async () => {
      const id = await add('msg_later', new Date(Date.parse(T0) + 60_000).toISOString());
      await worker.runDue();
      assert.equal(script.calls.length, 0);
      clock.advance(60_000);
      await worker.runDue();
      assert.equal(script.calls.length, 1);
      assert.equal((await job(id)).status, 'done');
    });

    it('a failed attempt is rescheduled with exponential backoff and jitter, then retried', async () => {
      script.state.behaviour = async (n) => {
        if (n <= 2) throw new Error(`mail server down (${n})`);
      };
      const id = await add('msg_retry');
      await worker.runDue();
      let row = await job(id);
      const first = retryDelayMs(messageDeliver.retry, 1, () => 0.5);
      assert.equal(first, 11_250, '15 s base, half fixed and half jittered (0.5)');
      assert.deepEqual([row.status, Number(row.attempts), row.last_error, row.run_at], ['failed', 1, 'mail server down (1)', new Date(Date.parse(T0) + first).toISOString()]);
      clock.advance(first - 1);
      await worker.runDue();
      assert.equal(script.calls.length, 1, 'not before its time');
      clock.advance(1);
      await worker.runDue();
      row = await job(id);
      const second = retryDelayMs(messageDeliver.retry, 2, () => 0.5);
      assert.equal(second, 2 * first, 'the wait doubles');
      assert.deepEqual([row.status, Number(row.attempts), row.last_error], ['failed', 2, 'mail server down (2)']);
      clock.advance(second);
      await worker.runDue();
      row = await job(id);
      assert.deepEqual([row.status, Number(row.attempts), row.last_error], ['done', 3, null]);
      assert.deepEqual(script.failures.map((f) => f.dead), [false, false]);
    });

    it('jitter spreads jobs that failed together', () => {
      const waits = [0, 0.25, 0.5, 1].map((r) => retryDelayMs(messageDeliver.retry, 3, () => r));
      assert.deepEqual(waits, [30_000, 37_500, 45_000, 60_000]);
      assert.equal(retryDelayMs(messageDeliver.retry, 30, () => 1), messageDeliver.retry.maxMs, 'capped');
    });

    it('after the last attempt the job is dead with its last error, stays visible, and outbox retry revives it', async () => {
      script.state.behaviour = async (n) => {
        throw new Error(`refused ${n}`);
      };
      const id = await add('msg_dead');
      const max = messageDeliver.retry.maxAttempts;
      for (let i = 0; i < max + 2; i++) {
        await worker.runDue();
        clock.advance(messageDeliver.retry.maxMs);
      }
      let row = await job(id);
      assert.deepEqual([row.status, Number(row.attempts), row.last_error], ['dead', max, `refused ${max}`]);
      assert.equal(script.calls.length, max, 'no attempt after the last');
      assert.deepEqual(script.failures.map((f) => f.dead), [...Array(max - 1).fill(false), true]);
      assert.equal(script.failures.at(-1)?.retryAt, null);

      const revived = await retryJobNow({ db: handle.db, transact: handle.transact, clock }, id);
      assert.ok(revived.ok);
      row = await job(id);
      assert.deepEqual([row.status, Number(row.attempts), row.last_error], ['pending', 0, `refused ${max}`], 'the last error stays until a run succeeds');
      script.state.behaviour = async () => undefined;
      await worker.runDue();
      row = await job(id);
      assert.deepEqual([row.status, Number(row.attempts), row.last_error], ['done', 1, null]);
      assert.deepEqual(await retryJobNow({ db: handle.db, transact: handle.transact, clock }, id), { ok: false, reason: 'not_retryable', status: 'done' });
      assert.deepEqual(await retryJobNow({ db: handle.db, transact: handle.transact, clock }, 'job_nope'), { ok: false, reason: 'not_found' });
    });

    it('a job whose lease ran out (its worker died) is claimed again, and the old lease can no longer settle it', async () => {
      const id = await add('msg_lease');
      const now = clock.now().toISOString();
      const [claimed] = await handle.transact((trx) =>
        claimJobs(trx, { now, leaseUntil: new Date(Date.parse(now) + 60_000).toISOString(), limit: 1, workerId: 'dead-worker', skipLocked: dialect === 'postgres' }),
      );
      assert.equal(claimed?.id, id);
      await worker.runDue();
      assert.equal(script.calls.length, 0, 'the lease still holds');
      clock.advance(60_001);
      await worker.runDue();
      assert.equal(script.calls.length, 1);
      assert.equal(script.calls[0]?.ctx.attempt, 2, 'the lost attempt counts');
      const row = await job(id);
      assert.deepEqual([row.status, row.locked_by], ['done', worker.id]);
      const late = await handle.transact((trx) => markJobDone(trx, { id, attempts: 1 }, clock.now().toISOString()));
      assert.equal(late, false, 'the dead worker’s lease is fenced off by the attempt count');
    });

    it('a job reclaimed after its last attempt’s worker died is dead, not run an extra time', async () => {
      const id = await add('msg_lost');
      await handle.transact((trx) => trx.updateTable('outbox').set({ attempts: messageDeliver.retry.maxAttempts, status: 'running', locked_until: T0, last_error: 'refused' }).where('id', '=', id).execute().then(() => undefined));
      clock.advance(1);
      await worker.runDue();
      const row = await job(id);
      assert.equal(row.status, 'dead');
      assert.match(row.last_error ?? '', /last attempt stopped before it ended \(earlier: refused\)/);
      assert.equal(script.calls.length, 0);
    });

    it('a row of an unknown kind or with a payload that does not match is dead at once, with a reason', async () => {
      const now = clock.now().toISOString();
      await handle.transact(async (trx) => {
        await insertJob(trx, { id: 'job_unknown', account_id: p.accountId, mode: p.mode, kind: 'nope.nothing', version: 1, payload: '{}', run_at: now, created_at: now });
        await insertJob(trx, { id: 'job_badpayload', account_id: p.accountId, mode: p.mode, kind: 'message.deliver', version: 1, payload: '{"msg":1}', run_at: now, created_at: now });
      });
      await worker.runDue();
      const unknown = await job('job_unknown');
      const bad = await job('job_badpayload');
      assert.equal(unknown.status, 'dead');
      assert.match(unknown.last_error ?? '', /No job definition is named "nope.nothing"/);
      assert.equal(bad.status, 'dead');
      assert.match(bad.last_error ?? '', /does not match message.deliver v1/);
      assert.equal(script.calls.length, 0);
    });

    it('a job written for another version of its definition is retried, not misread', async () => {
      const now = clock.now().toISOString();
      await handle.transact((trx) => insertJob(trx, { id: 'job_v2', account_id: p.accountId, mode: p.mode, kind: 'message.deliver', version: 2, payload: '{"message_id":"m"}', run_at: now, created_at: now }));
      await worker.runDue();
      const row = await job('job_v2');
      assert.equal(row.status, 'failed');
      assert.match(row.last_error ?? '', /written for version 2 of message.deliver; this worker runs version 1/);
      assert.equal(script.calls.length, 0);
    });

    it('the scheduled sweep exists once and runs again a period after each run', async () => {
      await worker.runDue();
      const other = dispatcher({ lock: undefined });
      await other.runDue();
      const rows = await handle.db.selectFrom('outbox').selectAll().where('kind', '=', 'forms.expire').execute();
      assert.equal(rows.length, 1);
      assert.deepEqual([rows[0]?.status, rows[0]?.run_at], ['pending', new Date(Date.parse(T0) + 60_000).toISOString()]);
    });

    it('wakes promptly after a commit that enqueued (slow poll of one minute), and stop hands back a job still running', async () => {
      let release!: () => void;
      const blocked = new Promise<void>((r) => (release = r));
      let started!: () => void;
      const running = new Promise<void>((r) => (started = r));
      script.state.behaviour = async (n) => {
        if (n === 2) {
          started();
          await blocked;
        }
      };
      worker = dispatcher({ pollMs: 60_000, stopGraceMs: 100 });
      const transact = transactWithWakeup(handle.transact, worker.wake);
      await worker.start();
      const t = performance.now();
      const first = await add('msg_prompt', undefined, transact);
      while ((await job(first)).status !== 'done') await new Promise((r) => setTimeout(r, 10));
      // Bounds far above a loaded machine's delays and far below the one-minute poll it is told apart from.
      assert.ok(performance.now() - t < 15_000, `done ${Math.round(performance.now() - t)} ms after the commit`);

      const second = await add('msg_blocked', undefined, transact);
      await running;
      await worker.stop();
      const row = await job(second);
      assert.deepEqual([row.status, Number(row.attempts), row.locked_until], ['pending', 0, null], 'handed back, the attempt uncounted');
      release();
      await new Promise((r) => setTimeout(r, 50));
      assert.equal((await job(second)).status, 'pending', 'the late end of the handed-back attempt changes nothing');
    });

    if (dialect === 'sqlite') {
      it('one process holds the worker: a second one is refused with a message naming the lock', async () => {
        const file = path.join(store.dataDir, 'worker.lock');
        const a = dispatcher({ lock: () => acquireSqliteWorkerLock(file) });
        await a.start();
        const b = dispatcher({ lock: () => acquireSqliteWorkerLock(file) });
        await assert.rejects(b.start(), (e: unknown) => e instanceof WorkerLockedError && e.message.includes(file) && /WORKER=off/.test(e.message));
        await a.stop();
        await b.start();
        await b.stop();
      });
    }

    if (dialect === 'postgres') {
      it('LISTEN/NOTIFY wakes a worker for a job committed elsewhere (no in-process signal)', async () => {
        worker = dispatcher({ pollMs: 60_000, listen: (onSignal) => listenForJobs(PG_URL, store.pgSchema, onSignal) });
        await worker.start();
        await new Promise((r) => setTimeout(r, 100));
        const t = performance.now();
        const id = await add('msg_notify');
        while ((await job(id)).status !== 'done') {
          assert.ok(performance.now() - t < 15_000, 'woken by NOTIFY well before the one-minute poll');
          await new Promise((r) => setTimeout(r, 10));
        }
      });
    }
  });
}
