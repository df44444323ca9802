import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { insertDelivery } from '../../src/db/repositories/webhook-deliveries.js';
import { DELIVERY_RETENTION_MS, sweepOldDeliveries } from '../../src/domain/webhooks/sweep-deliveries.js';
import { ATTEMPT_DELAYS_MS, delayBeforeAttemptMs, MAX_ATTEMPTS, retryAfterMs } from '../../src/domain/webhooks/retry-schedule.js';
import { newId } from '../../src/lib/ids.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';
import { startReceiver, waitFor } from './support/receiver.js';
import { createWebhook, deliveriesOf } from './support/webhooks.js';

describe('the retry schedule', () => {
  it("is the contract's table: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h", () => {
    assert.deepEqual(ATTEMPT_DELAYS_MS.map((ms) => ms / 1000), [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    assert.equal(MAX_ATTEMPTS, 10);
    const total = ATTEMPT_DELAYS_MS.reduce((a, b) => a + b, 0);
    assert.ok(total > 3 * 86_400_000 && total < 3.2 * 86_400_000, `about three days (${total / 3_600_000} h)`);
  });

  it('is scaled, jittered ±10 %, and floored by Retry-After (seconds or a date), capped at 24 h', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(delayBeforeAttemptMs(3, { scale: 1, random: () => 0.5, now }), 300_000);
    assert.equal(delayBeforeAttemptMs(3, { scale: 1, random: () => 0, now }), 270_000);
    assert.equal(delayBeforeAttemptMs(3, { scale: 1, random: () => 1, now }), 330_000);
    assert.equal(delayBeforeAttemptMs(3, { scale: 0.001, random: () => 0.5, now }), 300);
    assert.equal(delayBeforeAttemptMs(2, { scale: 1, random: () => 0.5, now, retryAfter: '120' }), 120_000);
    assert.equal(delayBeforeAttemptMs(4, { scale: 1, random: () => 0.5, now, retryAfter: '120' }), 1_800_000, 'never earlier than the schedule');
    assert.equal(delayBeforeAttemptMs(2, { scale: 1, random: () => 0.5, now, retryAfter: 'Thu, 01 Jan 2026 00:01:00 GMT' }), 60_000);
    assert.equal(delayBeforeAttemptMs(2, { scale: 1, random: () => 0.5, now, retryAfter: String(10 * 86_400) }), 86_400_000);
    assert.equal(retryAfterMs('soon', now), 0);
  });
});

for (const dialect of DIALECTS) {
  describe(`webhook lifecycle (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      // 0.00001: the whole three-day schedule in under three seconds.
      h = await createHarness(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.00001' } });
      await h.deps.worker.start();
    });
    after(() => h.close());

    it('a webhook whose attempts all failed for (scaled) three days is disabled, and its pending deliveries cancelled', async () => {
      const rx = await startReceiver(() => ({ status: 503 }));
      try {
        const w = await createWebhook(h, h.actors.aTest, rx.url, ['form.created']);
        const templateId = await seedTemplate(h, h.actors.aTest.partition, 'T', '2026-01-01T00:00:00.000Z');
        await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } });
        await waitFor('the webhook to be disabled', async () => (await h.request({ url: `/api/v1/webhooks/${w.id}`, as: h.actors.aTest })).json<{ status: string }>().status === 'disabled', 20_000);
        const row = await h.deps.database.db.selectFrom('webhooks').select(['disabled_reason', 'failing_since']).where('id', '=', w.id).executeTakeFirstOrThrow();
        assert.equal(row.disabled_reason, 'failing');
        const [d] = await deliveriesOf(h, h.actors.aTest, w.id);
        assert.equal(d!.status, 'failed');
        assert.ok(d!.attempts >= 2 && d!.attempts <= MAX_ATTEMPTS, `${d!.attempts} attempts`);
        assert.deepEqual([...new Set(d!.attempt_log.map((a) => a.status_code))], [503]);
        const n = rx.received.length;
        await new Promise((r) => setTimeout(r, 500));
        assert.equal(rx.received.length, n, 'no call once disabled');
      } finally {
        await rx.close();
      }
    });

    it('delivery records older than 30 days are swept; newer ones stay', async () => {
      const p = h.actors.bTest.partition;
      const now = Date.now();
      const ids = { old: newId('delivery'), edge: newId('delivery'), fresh: newId('delivery') };
      await h.deps.domain.transact(async (trx) => {
        for (const [key, age] of [['old', DELIVERY_RETENTION_MS + 3_600_000], ['edge', DELIVERY_RETENTION_MS - 3_600_000], ['fresh', 1000]] as const) {
          await insertDelivery(trx, p, { id: ids[key], webhook_id: 'wh_gone', event_id: newId('event'), event_type: 'form.sent', created_at: new Date(now - age).toISOString() });
        }
      });
      const swept = await sweepOldDeliveries(h.deps.domain, 1);
      assert.ok(swept >= 1);
      const left = (await h.deps.database.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', 'wh_gone').execute()).map((r) => r.id).sort();
      assert.deepEqual(left, [ids.edge, ids.fresh].sort());
    });
  });
}
