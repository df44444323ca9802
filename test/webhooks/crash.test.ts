import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { createForm } from '../../src/domain/forms/create-form.js';
import { createWebhook } from '../../src/domain/webhooks/create-webhook.js';
import type { Partition } from '../../src/lib/partition.js';
import { processStore, startChild, waitFor } from '../outbox/support/processes.js';
import { DIALECTS } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';
import { startReceiver, type Received } from './support/receiver.js';

// A worker killed mid-delivery (SIGKILL: no chance to clean up) loses nothing: after a restart every
// event is delivered at least once, always under its own event id; deliveries recorded as succeeded
// before the kill are never sent again. On PostgreSQL two workers share the work and never run one
// delivery at the same time.

const N = 30;
const CHILD = ['--import', 'tsx', 'test/webhooks/support/worker-child.ts'];

async function seed(store: Awaited<ReturnType<typeof processStore>>, url: string, n: number): Promise<{ p: Partition; eventIds: Set<string>; webhookId: string }> {
  const account = await createAccount(store.deps.domain, { name: 'Acme', plan: 'paid' });
  const p: Partition = { accountId: account.id, mode: 'test' };
  const hook = await createWebhook(store.deps.domain, p, { url, events: ['form.created'] });
  const templateId = await seedTemplate(store.asHarness, p, 'Lease', new Date().toISOString());
  for (let i = 0; i < n; i++) await createForm(store.deps.domain, p, { template_id: templateId });
  const events = await store.deps.database.db.selectFrom('events').select('id').where('account_id', '=', account.id).execute();
  assert.equal(events.length, n);
  return { p, eventIds: new Set(events.map((e) => e.id)), webhookId: hook.id };
}

for (const dialect of DIALECTS) {
  describe(`webhook delivery survives a killed worker (${dialect})`, () => {
    let store: Awaited<ReturnType<typeof processStore>>;
    let rx: Awaited<ReturnType<typeof startReceiver>>;
    let stall = true;
    const stalled: Array<() => void> = [];

    before(async () => {
      // The first few are answered; from the eighth on, the receiver takes the request and holds its
      // answer, so the worker is caught between sending and recording.
      rx = await startReceiver((_r, n) => (n < 8 || !stall ? { status: 200 } : new Promise((resolve) => stalled.push(() => resolve({ status: 200 })))));
      store = await processStore(dialect, 'whcrash', { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001', WORKER: 'off' });
    });
    after(async () => {
      for (const release of stalled.splice(0)) release();
      await store.drop();
      await rx.close();
    });

    it('SIGKILL mid-delivery, then a new worker: every event delivered at least once with its own id; none recorded as delivered is sent again', async () => {
      const { eventIds, webhookId } = await seed(store, rx.url, N);
      const deliveries = () => store.deps.database.db.selectFrom('webhook_deliveries').select(['id', 'event_id', 'status']).where('webhook_id', '=', webhookId).execute();
      const first = startChild(CHILD, store.env);
      await waitFor('the first worker to be mid-delivery', async () => stalled.length >= 2 && (await deliveries()).filter((d) => d.status === 'succeeded').length >= 5, 60_000);
      first.proc.kill('SIGKILL');
      assert.equal(await first.exited, null, 'killed, not exited');
      const atKill = await deliveries();
      const doneAtKill = new Set(atKill.filter((d) => d.status === 'succeeded').map((d) => d.event_id));
      assert.ok(doneAtKill.size < N, 'work was left');
      const receivedAtKill = rx.received.length;

      stall = false;
      for (const release of stalled.splice(0)) release();
      const second = startChild(CHILD, store.env);
      try {
        await waitFor('every delivery to succeed', async () => {
          const all = await deliveries();
          return all.length === N && all.every((d) => d.status === 'succeeded');
        }, 60_000);
      } finally {
        second.proc.kill('SIGTERM');
        assert.equal(await second.exited, 0, second.stderr());
      }
      const copies = new Map<string, Received[]>();
      for (const r of rx.received) {
        const id = String(r.headers['service-event-id']);
        copies.set(id, [...(copies.get(id) ?? []), r]);
      }
      assert.deepEqual([...copies.keys()].sort(), [...eventIds].sort(), 'every event arrived, and nothing else');
      for (const [id, got] of copies) {
        for (const r of got) assert.equal((JSON.parse(r.raw.toString()) as { id: string }).id, id, 'the body carries the same event id');
        if (doneAtKill.has(id)) assert.equal(got.length, 1, `${id} was recorded as delivered before the kill and not sent again`);
        assert.ok(got.every((r) => r.raw.equals(got[0]!.raw)), 'a resend carries the same bytes');
      }
      const resent = rx.received.length - N;
      assert.ok(resent <= receivedAtKill - doneAtKill.size, `${resent} resent, at most those in flight at the kill`);
    });
  });
}

describe('two workers on PostgreSQL', () => {
  let store: Awaited<ReturnType<typeof processStore>>;
  const inflight = new Map<string, number>();
  let overlaps = 0;
  let rx: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    rx = await startReceiver((r) => {
      const id = String(r.headers['service-event-id']);
      const n = (inflight.get(id) ?? 0) + 1;
      inflight.set(id, n);
      if (n > 1) overlaps++;
      return new Promise((resolve) =>
        setTimeout(() => {
          inflight.set(id, (inflight.get(id) ?? 1) - 1);
          resolve({ status: 200 });
        }, 30),
      );
    });
    store = await processStore('postgres', 'whtwo', { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001', WORKER: 'off', TEST_LEASE_MS: '10000' });
  });
  after(async () => {
    await store.drop();
    await rx.close();
  });

  it('share the events and deliveries (SKIP LOCKED) and never deliver one delivery twice or concurrently', async () => {
    const a = startChild(CHILD, store.env);
    const b = startChild(CHILD, store.env);
    try {
      await waitFor('both workers', () => a.stdout().includes('ready') && b.stdout().includes('ready'));
      const { eventIds, webhookId } = await seed(store, rx.url, 60);
      await waitFor('every delivery to succeed', async () => {
        const all = await store.deps.database.db.selectFrom('webhook_deliveries').select('status').where('webhook_id', '=', webhookId).execute();
        return all.length === 60 && all.every((d) => d.status === 'succeeded');
      }, 60_000);
      assert.equal(overlaps, 0, 'no delivery was attempted by both workers at once');
      assert.equal(rx.received.length, 60, 'each delivered exactly once');
      assert.deepEqual(new Set(rx.received.map((r) => String(r.headers['service-event-id']))), eventIds);
      const workers = await store.deps.database.db.selectFrom('outbox').select('locked_by').where('kind', '=', 'webhook.deliver').execute();
      assert.equal(new Set(workers.map((w) => w.locked_by)).size, 2, 'both workers delivered');
    } finally {
      a.proc.kill('SIGTERM');
      b.proc.kill('SIGTERM');
      assert.equal(await a.exited, 0, a.stderr());
      assert.equal(await b.exited, 0, b.stderr());
    }
  });
});
