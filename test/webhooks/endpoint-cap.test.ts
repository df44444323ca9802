import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';
import { startReceiver, waitFor } from './support/receiver.js';
import { createWebhook } from './support/webhooks.js';

// One slow receiver holds at most the per-endpoint cap (4) of the worker's 8 job slots: another
// webhook's deliveries keep flowing meanwhile.

const N = 12;

for (const dialect of DIALECTS) {
  describe(`per-endpoint concurrency (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001' } });
      await h.deps.worker.start();
    });
    after(() => h.close());

    it('a slow receiver gets at most 4 attempts at once and does not stall a fast one', async () => {
      let open = 0;
      let peak = 0;
      const releases: Array<() => void> = [];
      const slow = await startReceiver(
        () =>
          new Promise((resolve) => {
            open++;
            peak = Math.max(peak, open);
            releases.push(() => {
              open--;
              resolve({ status: 200 });
            });
          }),
      );
      const fast = await startReceiver();
      try {
        await createWebhook(h, h.actors.aTest, slow.url, ['form.created']);
        await createWebhook(h, h.actors.aTest, fast.url, ['form.created']);
        const templateId = await seedTemplate(h, h.actors.aTest.partition, 'T', '2026-01-01T00:00:00.000Z');
        for (let i = 0; i < N; i++) await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } });
        await waitFor('the fast receiver to get every event while the slow one holds its answers', () => fast.received.length >= N, 20_000);
        assert.ok(slow.received.length <= 4, `${slow.received.length} requests reached the slow receiver at once`);
        assert.equal(peak, 4, 'the slow receiver had the cap, and no more, in flight');
        // Released, the slow receiver gets the rest, never more than 4 at a time.
        const drain = setInterval(() => releases.splice(0).forEach((r) => r()), 20);
        try {
          await waitFor('the slow receiver to get every event', () => slow.received.length >= N, 30_000);
        } finally {
          clearInterval(drain);
          releases.splice(0).forEach((r) => r());
        }
        assert.ok(peak <= 4, `peak ${peak}`);
        assert.equal(new Set(slow.received.map((r) => r.headers['service-event-id'])).size, N);
      } finally {
        releases.splice(0).forEach((r) => r());
        await Promise.all([slow.close(), fast.close()]);
      }
    });
  });
}
