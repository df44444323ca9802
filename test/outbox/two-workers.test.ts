import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { seedTemplate } from '../shared/seed.js';
import { processStore, startChild, waitFor, type Child } from './support/processes.js';
import { seedSentMessage, startSmtpSink } from './support/sending.js';

// PostgreSQL lets any number of workers share the outbox (FOR UPDATE SKIP LOCKED): two `formsign
// worker` processes over 200 jobs — each job is claimed once, runs once, and none is lost.

const N = 200;

describe('two formsign worker processes on PostgreSQL', () => {
  let store: Awaited<ReturnType<typeof processStore>>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  const workers: Child[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  before(async () => {
    // A little latency per message, so the two workers' runs overlap.
    sink = await startSmtpSink({
      onData: async () => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await new Promise((r) => setTimeout(r, 10));
        inFlight--;
        return 'accept' as const;
      },
    });
    store = await processStore('postgres', 'twoworkers', { SMTP_URL: sink.url, WORKER: 'off' });
  });
  after(async () => {
    for (const w of workers) if (w.proc.exitCode === null) w.proc.kill('SIGKILL');
    await store.drop();
    await sink.close();
  });

  it('each of 200 jobs runs exactly once, the work is shared, nothing is lost', async () => {
    for (let i = 0; i < 2; i++) workers.push(startChild(['bin/formsign.js', 'worker', '--json'], store.env));
    await waitFor('both workers to run', () => workers.every((w) => w.stdout().includes('"status": "running"')));
    const ids = workers.map((w) => (JSON.parse(w.stdout()) as { id: string }).id);

    const account = await createAccount(store.deps.domain, { name: 'Acme', plan: 'paid' });
    const p = { accountId: account.id, mode: 'test' as const };
    const templateId = await seedTemplate(store.asHarness, p, 'Lease', new Date().toISOString());
    const sent = await Promise.all(Array.from({ length: N }, (_, i) => seedSentMessage(store.deps.domain, p, templateId, { channel: 'email', to: `r${i}@example.com` })));

    const jobs = () => store.deps.database.db.selectFrom('outbox').selectAll().where('kind', '=', 'message.deliver').execute();
    await waitFor('every job to be done', async () => (await jobs()).every((j) => j.status === 'done'), 120_000);

    const rows = await jobs();
    assert.equal(rows.length, N);
    assert.deepEqual([...new Set(rows.map((j) => Number(j.attempts)))], [1], 'no job was claimed twice');
    const byWorker = new Map<string, number>();
    for (const j of rows) byWorker.set(j.locked_by ?? '', (byWorker.get(j.locked_by ?? '') ?? 0) + 1);
    assert.deepEqual([...byWorker.keys()].sort(), [...ids].sort(), `both workers ran jobs: ${JSON.stringify([...byWorker])}`);

    const copies = new Map<string, number>();
    for (const m of sink.received) copies.set(m.parsed.messageId ?? '', (copies.get(m.parsed.messageId ?? '') ?? 0) + 1);
    for (const s of sent) assert.equal(copies.get(`<${s.messageId}@localhost>`), 1, `message ${s.messageId} delivered exactly once`);
    assert.equal(sink.received.length, N);
    assert.ok(maxInFlight > 1, 'messages were in flight at the same time');

    for (const w of workers) w.proc.kill('SIGTERM');
    assert.deepEqual(await Promise.all(workers.map((w) => w.exited)), [0, 0]);
  });
});
