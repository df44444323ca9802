import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { startReceiver, waitFor } from './support/receiver.js';
import { createWebhook, deliveriesOf, expectedSignature, signaturesOf } from './support/webhooks.js';

// POST /api/v1/webhooks/{id}/test (issue 24): a signed `webhook.test` event to that one webhook,
// in its delivery log, not counted toward the monthly quota.

for (const dialect of DIALECTS) {
  describe(`webhook test event (${dialect})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001' } });
      await h.deps.worker.start();
    });
    after(() => h.close());

    it('delivers a signed webhook.test event whose data is the webhook, to that webhook only, and logs it', async () => {
      const rx = await startReceiver();
      const other = await startReceiver();
      try {
        const hook = await createWebhook(h, h.actors.aTest, rx.url, ['form.signed']);
        await createWebhook(h, h.actors.aTest, other.url, ['form.signed', 'form.created']);
        const res = await h.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/test`, as: h.actors.aTest });
        assert.equal(res.status, 200, res.body);
        const d = res.json<{ object: string; id: string; event_type: string; event_id: string; status: string; webhook_id: string }>();
        assert.deepEqual([d.object, d.event_type, d.webhook_id], ['webhook_delivery', 'webhook.test', hook.id]);
        assert.match(d.id, /^whd_/);

        await waitFor('the test event', () => rx.received.length >= 1);
        const r = rx.received[0]!;
        const { t, v1 } = signaturesOf(r);
        assert.deepEqual(v1, [expectedSignature(hook.signing_secret, t, r.raw)]);
        const body = JSON.parse(r.raw.toString('utf8')) as { object: string; id: string; type: string; mode: string; data: { object: { object: string; id: string; url: string; signing_secret?: string } } };
        assert.deepEqual([body.object, body.type, body.mode, body.id], ['event', 'webhook.test', 'test', d.event_id]);
        assert.deepEqual([body.data.object.object, body.data.object.id, body.data.object.url], ['webhook', hook.id, rx.url]);
        assert.ok(!r.raw.toString().includes('whsec_'), 'the secret is never in the body');
        assert.equal(r.headers['service-event-type'], 'webhook.test');
        assert.equal(r.headers['service-event-id'], d.event_id);

        await waitFor('the delivery log', async () => (await deliveriesOf(h, h.actors.aTest, hook.id)).some((x) => x.id === d.id && x.status === 'succeeded'));
        const logged = (await deliveriesOf(h, h.actors.aTest, hook.id)).find((x) => x.id === d.id)!;
        assert.equal(logged.attempt_log[0]?.status_code, 200);
        await new Promise((s) => setTimeout(s, 200));
        assert.equal(other.received.length, 0, 'no other webhook receives it');
        assert.equal(await h.deps.database.db.selectFrom('events').select('id').where('id', '=', d.event_id).executeTakeFirst(), undefined, 'no event row: the publisher never fans it out');
      } finally {
        await rx.close();
        await other.close();
      }
    });

    it('is not counted toward the monthly quota (the window applies)', async () => {
      const hook = await createWebhook(h, h.actors.bTest, 'http://127.0.0.1:9/hook', ['form.sent']);
      const monthly = async (method: string, url: string) => {
        const res = await h.request({ method, url, as: h.actors.bTest });
        assert.ok(res.status < 300, res.body);
        assert.ok(res.headers['x-ratelimit-limit'] !== undefined);
        return Number(res.headers['x-ratelimit-monthly-remaining']);
      };
      const first = await monthly('POST', `/api/v1/webhooks/${hook.id}/test`);
      const second = await monthly('POST', `/api/v1/webhooks/${hook.id}/test`);
      assert.equal(second, first, 'a test event costs no call of the month');
      assert.equal(await monthly('GET', `/api/v1/webhooks/${hook.id}`), first - 1, 'an ordinary call does');
    });

    it('refuses a disabled webhook (400) and another partition\'s webhook (404)', async () => {
      const hook = await createWebhook(h, h.actors.aTest, 'http://127.0.0.1:9/hook', ['form.sent']);
      await h.request({ method: 'PATCH', url: `/api/v1/webhooks/${hook.id}`, as: h.actors.aTest, json: { status: 'disabled' } });
      const disabled = await h.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/test`, as: h.actors.aTest });
      assert.equal(disabled.status, 400);
      assert.deepEqual([errorOf(disabled).code, errorOf(disabled).param], ['parameter_invalid', 'webhook_id']);
      for (const as of [h.actors.aLive, h.actors.bTest]) {
        const res = await h.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/test`, as });
        assert.equal(res.status, 404);
        assert.equal(errorOf(res).code, 'resource_not_found');
      }
      const none = await h.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/test` });
      assert.equal(none.status, 401);
    });
  });
}
