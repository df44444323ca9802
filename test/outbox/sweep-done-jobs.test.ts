// The outbox sweep: done jobs older than a week are deleted in batches; dead, failed, pending and
// running jobs, recent done jobs and the scheduled jobs' rows stay.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JobStatus } from '../../src/db/tables.js';
import { DONE_JOB_RETENTION_MS, sweepDoneJobs } from '../../src/outbox/sweep-done-jobs.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { FakeClock } from './support/sending.js';

const T0 = Date.parse('2026-06-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

for (const dialect of DIALECTS) {
  describe(`outbox sweep (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect, { clock: new FakeClock(T0) });
    });
    after(() => h.close());

    const job = (id: string, status: JobStatus, runAt: number) => ({
      id, account_id: h.actors.aTest.partition.accountId, mode: h.actors.aTest.partition.mode, kind: 'message.deliver', version: 1,
      payload: '{}', status, attempts: 1, run_at: iso(runAt), locked_until: null, locked_by: null, last_error: null, created_at: iso(runAt), updated_at: iso(runAt),
    });

    it('deletes done jobs older than the retention, in batches, and nothing else', async () => {
      const old = T0 - DONE_JOB_RETENTION_MS - 60_000;
      const recent = T0 - DONE_JOB_RETENTION_MS + 60_000;
      const rows = [
        ...Array.from({ length: 25 }, (_, i) => job(`job_olddone${i}`, 'done', old - i)),
        job('job_recentdone', 'done', recent),
        job('job_olddead', 'dead', old),
        job('job_oldfailed', 'failed', old),
        job('job_oldpending', 'pending', old),
      ];
      await h.deps.database.transact(async (trx) => { await trx.insertInto('outbox').values(rows).execute(); });
      const deleted = await sweepDoneJobs(h.deps.domain, 10);
      assert.equal(deleted, 25);
      const left = (await h.deps.database.db.selectFrom('outbox').select(['id', 'status']).where('id', 'like', 'job_%').execute()).map((r) => r.id).sort();
      for (const id of ['job_recentdone', 'job_olddead', 'job_oldfailed', 'job_oldpending']) assert.ok(left.includes(id), `${id} stays`);
      assert.equal(left.filter((id) => id.startsWith('job_olddone')).length, 0, 'every old done job is gone');
      assert.equal(await sweepDoneJobs(h.deps.domain, 10), 0, 'a second run finds nothing');
    });
  });
}
