import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { DIALECTS } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';
import { processStore, startChild, waitFor } from './support/processes.js';
import { seedSentMessage, startSmtpSink, type SentFixture } from './support/sending.js';

// A worker killed mid-job (SIGKILL: no chance to clean up) loses nothing: a new worker claims the
// jobs whose lease ran out and delivers every message. Jobs marked done before the kill are never
// sent again; a job in flight at the kill may be sent twice (at least once), which the Message-ID
// lets a receiver see.

const N = 24;

for (const dialect of DIALECTS) {
  describe(`worker crash safety (${dialect})`, () => {
    let store: Awaited<ReturnType<typeof processStore>>;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    let stall = true;
    const stalled: Array<() => void> = [];
    let sent: SentFixture[] = [];

    before(async () => {
      // The first few go through; from the eighth on, the server takes the DATA and holds its reply,
      // so the worker is caught between the DATA end and marking the job done.
      sink = await startSmtpSink({ onData: (n) => (n < 7 || !stall ? 'accept' : new Promise((resolve) => stalled.push(() => resolve('accept')))) });
      store = await processStore(dialect, 'crash', { SMTP_URL: sink.url });
      const account = await createAccount(store.deps.domain, { name: 'Acme', plan: 'paid' });
      const p = { accountId: account.id, mode: 'test' as const };
      const templateId = await seedTemplate(store.asHarness, p, 'Lease', new Date().toISOString());
      sent = [];
      for (let i = 0; i < N; i++) sent.push(await seedSentMessage(store.deps.domain, p, templateId, { channel: 'email', to: `r${i}@example.com` }));
    });
    after(async () => {
      for (const release of stalled.splice(0)) release();
      await store.drop();
      await sink.close();
    });

    it('SIGKILL mid-job, then a new worker: every message is delivered, and none that was marked done is sent again', async () => {
      const jobs = () => store.deps.database.db.selectFrom('outbox').select(['id', 'status']).where('kind', '=', 'message.deliver').execute();
      const first = startChild(['--import', 'tsx', 'test/outbox/support/worker-child.ts'], store.env);
      await waitFor('the first worker to be mid-job', async () => stalled.length >= 1 && (await jobs()).filter((j) => j.status === 'done').length >= 5).catch((e: unknown) => {
        throw new Error(`${String(e)}; worker said: ${first.stdout()} ${first.stderr()}`);
      });
      first.proc.kill('SIGKILL');
      assert.equal(await first.exited, null, 'killed, not exited');
      const atKill = await jobs();
      const doneAtKill = new Set(atKill.filter((j) => j.status === 'done').map((j) => j.id));
      const runningAtKill = atKill.filter((j) => j.status === 'running').length;
      assert.ok(runningAtKill >= 1, 'jobs were in flight when the worker died');
      assert.ok(doneAtKill.size < N, 'work was left');

      stall = false;
      const second = startChild(['--import', 'tsx', 'test/outbox/support/worker-child.ts'], store.env);
      try {
        await waitFor('every job to be done', async () => (await jobs()).every((j) => j.status === 'done'), 60_000);
      } finally {
        second.proc.kill('SIGTERM');
        assert.equal(await second.exited, 0, second.stderr());
      }

      const copies = new Map<string, number>();
      for (const m of sink.received) copies.set(m.parsed.messageId ?? '', (copies.get(m.parsed.messageId ?? '') ?? 0) + 1);
      let duplicates = 0;
      for (const s of sent) {
        const n = copies.get(`<${s.messageId}@localhost>`) ?? 0;
        assert.ok(n >= 1, `message ${s.messageId} was delivered`);
        if (doneAtKill.has(s.jobId)) assert.equal(n, 1, `job ${s.jobId} was done before the kill and was not sent again`);
        duplicates += n - 1;
      }
      assert.ok(duplicates <= runningAtKill, `${duplicates} resent, at most the ${runningAtKill} in flight at the kill`);
      const delivered = await store.deps.database.db.selectFrom('recipients').select('delivery_status').execute();
      assert.deepEqual([...new Set(delivered.map((r) => r.delivery_status))], ['delivered']);
    });

    it('SIGTERM on `formsign worker`: running jobs finish or are handed back, then it exits 0', async () => {
      const account = await createAccount(store.deps.domain, { name: 'Beta' });
      const p = { accountId: account.id, mode: 'test' as const };
      const templateId = await seedTemplate(store.asHarness, p, 'Lease', new Date().toISOString());
      stall = true;
      const before = sink.received.length;
      // Sessions the SIGKILLed worker of the test before left stalled are not this worker's.
      const stalledBefore = stalled.length;
      for (let i = 0; i < 3; i++) await seedSentMessage(store.deps.domain, p, templateId, { channel: 'email', to: `t${i}@example.com` });
      const worker = startChild(['bin/formsign.js', 'worker'], { ...store.env, WORKER: 'off' });
      await waitFor('the worker to start', () => worker.stdout().includes('is running'));
      await waitFor('a job in flight', () => sink.received.length > before || stalled.length > stalledBefore);
      worker.proc.kill('SIGTERM');
      assert.equal(await worker.exited, 0, worker.stderr());
      const left = await store.deps.database.db.selectFrom('outbox').select(['status', 'locked_until']).where('account_id', '=', p.accountId).execute();
      assert.equal(left.length, 3);
      for (const j of left) assert.ok(j.status === 'done' || (j.status !== 'running' && j.locked_until === null), `no lease left behind: ${JSON.stringify(j)}`);
    });
  });
}
