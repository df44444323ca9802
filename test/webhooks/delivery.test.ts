import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyWebhook } from '../../clients/typescript/src/index.js';
import { expireForms } from '../../src/domain/forms/expire-forms.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';
import { startReceiver, waitFor, type Answer, type Received } from './support/receiver.js';
import { createWebhook, deliveriesOf, expectedSignature, recordEvent, signaturesOf } from './support/webhooks.js';

const ALL = ['form.created', 'form.sent', 'form.viewed', 'form.signed', 'form.expired'];

for (const dialect of DIALECTS) {
  describe(`webhook deliveries (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    let liveTemplateId: string;

    before(async () => {
      h = await createHarness(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001' } });
      templateId = await seedTemplate(h, h.actors.aTest.partition, 'Lease', '2026-01-01T00:00:00.000Z');
      liveTemplateId = await seedTemplate(h, h.actors.aLive.partition, 'Lease', '2026-01-01T00:00:00.000Z');
      await h.deps.worker.start();
    });
    after(() => h.close());

    const newForm = async (as = h.actors.aTest, tmpl = templateId): Promise<string> => {
      const res = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: tmpl } });
      assert.equal(res.status, 201, res.body);
      return res.json<{ id: string }>().id;
    };

    it('a form driven through its life: each of the five events reaches the receiver, signed over the exact bytes; a subset webhook gets its subset; live and test never cross', async () => {
      const all = await startReceiver();
      const subset = await startReceiver();
      const live = await startReceiver();
      try {
        const wAll = await createWebhook(h, h.actors.aTest, all.url, ALL);
        const wSubset = await createWebhook(h, h.actors.aTest, subset.url, ['form.sent', 'form.signed']);
        const wLive = await createWebhook(h, h.actors.aLive, live.url, ALL);
        const p = h.actors.aTest.partition;

        const formId = await newForm();
        const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as: h.actors.aTest, json: { recipients: [{ email: 'ann@example.com', channel: 'email', name: 'Ann' }] } });
        assert.equal(sent.status, 200, sent.body);
        // form.viewed and form.signed come from the signing flow (built elsewhere): recorded as it records them.
        await recordEvent(h, p, formId, 'form.viewed');
        await recordEvent(h, p, formId, 'form.signed');
        // Expiry through the real sweep, on a second form.
        const expiring = await newForm();
        await h.request({ method: 'POST', url: `/api/v1/forms/${expiring}/send`, as: h.actors.aTest, json: { recipients: [{ email: 'bo@example.com', channel: 'email', name: 'Bo' }] } });
        await h.deps.database.transact((trx) => trx.updateTable('forms').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', expiring).execute().then(() => undefined));
        assert.equal(await expireForms(h.deps.domain), 1);

        const liveForm = await newForm(h.actors.aLive, liveTemplateId);

        await waitFor('all deliveries', () => all.received.length >= 7 && subset.received.length >= 3 && live.received.length >= 1).catch(async (e: unknown) => {
          console.log(all.received.length, subset.received.length, live.received.length, await h.deps.database.db.selectFrom('webhook_deliveries').select(['event_type', 'status', 'attempt_log']).execute());
          throw e;
        });
        await new Promise((r) => setTimeout(r, 300)); // nothing more should come

        const events = await h.deps.database.db.selectFrom('events').select(['id', 'type', 'form_id', 'mode', 'published_at']).execute();
        const testEvents = events.filter((e) => e.mode === 'test' && [formId, expiring].includes(e.form_id));
        assert.deepEqual(testEvents.map((e) => e.type).sort(), ['form.created', 'form.created', 'form.expired', 'form.sent', 'form.sent', 'form.signed', 'form.viewed'].sort());
        assert.ok(events.every((e) => e.published_at !== null), 'every event was published');

        const check = (r: Received, secret: string) => {
          const event = verifyWebhook(r.raw, r.headers['service-signature'] as string, secret);
          const { t, v1 } = signaturesOf(r);
          assert.deepEqual(v1, [expectedSignature(secret, t, r.raw)], 'one v1, HMAC over "<t>.<raw body>" keyed with the whole secret');
          assert.ok(Math.abs(Date.now() / 1000 - t) < 30);
          assert.equal(r.headers['content-type'], 'application/json');
          assert.match(String(r.headers['user-agent']), /^Formsign-Webhooks\/\d+\.\d+\.\d+$/);
          assert.equal(r.headers['service-event-type'], event.type);
          assert.equal(r.headers['service-event-id'], event.id);
          assert.equal(r.headers['service-delivery-attempt'], '1');
          assert.equal(r.headers['location'], undefined);
          assert.equal(event.object, 'event');
          assert.equal(event.data.object.object, 'form');
          return event;
        };
        const gotAll = all.received.map((r) => check(r, wAll.signing_secret));
        assert.deepEqual(gotAll.map((e) => e.id).sort(), testEvents.map((e) => e.id).sort(), 'the all-events webhook got every test event, once');
        assert.deepEqual([...new Set(gotAll.map((e) => e.type))].sort(), [...ALL].sort());
        assert.ok(gotAll.every((e) => e.mode === 'test'));
        const signedEvent = gotAll.find((e) => e.type === 'form.signed')!;
        assert.equal(signedEvent.data.object.id, formId);
        // data.object is a Form for form.* events (a BulkSend for bulk_send.completed).
        assert.ok(signedEvent.data.object.object === 'form');
        assert.equal(signedEvent.data.object.recipients[0]?.email, 'ann@example.com');
        assert.equal(gotAll.find((e) => e.type === 'form.expired')!.data.object.status, 'expired');

        const gotSubset = subset.received.map((r) => check(r, wSubset.signing_secret));
        assert.deepEqual(gotSubset.map((e) => e.type).sort(), ['form.sent', 'form.sent', 'form.signed']);

        const gotLive = live.received.map((r) => check(r, wLive.signing_secret));
        assert.deepEqual(gotLive.map((e) => [e.type, e.mode, e.data.object.id]), [['form.created', 'live', liveForm]]);
        assert.ok(!all.received.some((r) => r.raw.includes(liveForm)), 'the live event never reached the test webhook');

        // The body delivered is the Event object as the events API shows it, byte for byte.
        const listed = await h.request({ url: `/api/v1/forms/${formId}/events`, as: h.actors.aTest });
        for (const item of listed.json<{ data: Array<{ id: string }> }>().data) {
          const delivered = all.received.find((r) => r.headers['service-event-id'] === item.id)!;
          assert.equal(delivered.raw.toString('utf8'), JSON.stringify(item));
        }
        const log = await deliveriesOf(h, h.actors.aTest, wAll.id);
        assert.equal(log.length, 7);
        assert.ok(log.every((d) => d.status === 'succeeded' && d.attempts === 1 && d.last_status_code === 200 && d.attempt_log[0]?.status_code === 200));
      } finally {
        await Promise.all([all.close(), subset.close(), live.close()]);
      }
    });

    it('failure then success on the scaled schedule: the same event id and body every attempt, a fresh signature each; the log keeps status, duration, error and the first KB of the answer', async () => {
      const rx = await startReceiver((_r, n) => (n <= 2 ? { status: 500, body: 'x'.repeat(3000) } : { status: 204 }));
      try {
        const w = await createWebhook(h, h.actors.aTest, rx.url, ['form.created']);
        const failingSince = async () => (await h.deps.database.db.selectFrom('webhooks').select('failing_since').where('id', '=', w.id).executeTakeFirstOrThrow()).failing_since;
        await newForm();
        await waitFor('a failed attempt recorded', async () => (await failingSince()) !== null);
        await waitFor('three attempts', () => rx.received.length >= 3);
        const [a, b, c] = rx.received as [Received, Received, Received];
        assert.deepEqual([a, b, c].map((r) => r.headers['service-delivery-attempt']), ['1', '2', '3']);
        assert.equal(new Set([a, b, c].map((r) => r.headers['service-event-id'])).size, 1);
        assert.ok(a.raw.equals(b.raw) && b.raw.equals(c.raw), 'the same bytes on every attempt');
        for (const r of [a, b, c]) verifyWebhook(r.raw, r.headers['service-signature'] as string, w.signing_secret);
        // Scaled by 0.001: 5 s → ~5 ms, 5 min → ~300 ms (±10 % jitter).
        assert.ok(c.at - b.at >= 250, `third attempt ${c.at - b.at} ms after the second`);
        await waitFor('the delivery to succeed', async () => (await deliveriesOf(h, h.actors.aTest, w.id))[0]?.status === 'succeeded');
        const [d] = await deliveriesOf(h, h.actors.aTest, w.id);
        assert.equal(d!.attempts, 3);
        assert.equal(d!.last_status_code, 204);
        assert.deepEqual(d!.attempt_log.map((x) => x.status_code), [500, 500, 204]);
        assert.equal(d!.attempt_log[0]!.response_body, 'x'.repeat(1024));
        assert.match(d!.attempt_log[0]!.error!, /500/);
        assert.equal(d!.attempt_log[2]!.error, null);
        assert.ok(d!.attempt_log.every((x) => x.duration_ms >= 0));
        assert.equal(await failingSince(), null, 'the success ended the failing streak');
      } finally {
        await rx.close();
      }
    });

    it('a redirect is a failure and is not followed; Retry-After on 429 is honoured', async () => {
      const target = await startReceiver();
      const rx = await startReceiver((_r, n): Answer => (n === 1 ? { status: 302, headers: { location: target.url } } : n === 2 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
      try {
        const w = await createWebhook(h, h.actors.aTest, rx.url, ['form.created']);
        await newForm();
        await waitFor('three attempts', () => rx.received.length >= 3);
        assert.equal(target.received.length, 0, 'the redirect was not followed');
        const gap = rx.received[2]!.at - rx.received[1]!.at;
        assert.ok(gap >= 950, `the attempt after Retry-After: 1 came ${gap} ms later`);
        await waitFor('success', async () => (await deliveriesOf(h, h.actors.aTest, w.id))[0]?.status === 'succeeded');
        const [d] = await deliveriesOf(h, h.actors.aTest, w.id);
        assert.deepEqual(d!.attempt_log.map((x) => x.status_code), [302, 429, 200]);
        assert.match(d!.attempt_log[0]!.error!, /redirect/);
      } finally {
        await Promise.all([rx.close(), target.close()]);
      }
    });

    it('410 Gone disables the webhook at once; a disabled webhook receives nothing more; a retry from the API delivers again once re-enabled', async () => {
      let gone = true;
      const rx = await startReceiver(() => (gone ? { status: 410 } : { status: 200 }));
      try {
        const w = await createWebhook(h, h.actors.aTest, rx.url, ['form.created']);
        await newForm();
        await waitFor('the webhook to be disabled', async () => (await h.request({ url: `/api/v1/webhooks/${w.id}`, as: h.actors.aTest })).json<{ status: string }>().status === 'disabled');
        assert.equal(rx.received.length, 1);
        const [d] = await deliveriesOf(h, h.actors.aTest, w.id);
        assert.equal(d!.status, 'failed');
        assert.equal(d!.next_attempt_at, null);

        await newForm();
        await new Promise((r) => setTimeout(r, 400));
        assert.equal(rx.received.length, 1, 'nothing more while disabled');
        assert.equal((await deliveriesOf(h, h.actors.aTest, w.id)).length, 1, 'no delivery is made for a disabled webhook');

        gone = false;
        const reenabled = await h.request({ method: 'PATCH', url: `/api/v1/webhooks/${w.id}`, as: h.actors.aTest, json: { status: 'enabled' } });
        assert.equal(reenabled.json<{ status: string }>().status, 'enabled');
        const retry = await h.request({ method: 'POST', url: `/api/v1/webhooks/${w.id}/deliveries/${d!.id}/retry`, as: h.actors.aTest });
        assert.equal(retry.status, 200, retry.body);
        assert.equal(retry.json<{ status: string }>().status, 'pending');
        await waitFor('the retried delivery', () => rx.received.length >= 2);
        assert.equal(rx.received[1]!.headers['service-event-id'], d!.event_id);
        assert.equal(rx.received[1]!.headers['service-delivery-attempt'], '2');
        await waitFor('success', async () => (await deliveriesOf(h, h.actors.aTest, w.id))[0]?.status === 'succeeded');
      } finally {
        await rx.close();
      }
    });

    it('disabling or deleting a webhook cancels its pending deliveries: no further calls', async () => {
      const rx = await startReceiver(() => ({ status: 500 }));
      try {
        const w = await createWebhook(h, h.actors.aTest, rx.url, ['form.created']);
        await newForm();
        await waitFor('two attempts', () => rx.received.length >= 2);
        const off = await h.request({ method: 'PATCH', url: `/api/v1/webhooks/${w.id}`, as: h.actors.aTest, json: { status: 'disabled' } });
        assert.equal(off.status, 200);
        const atDisable = rx.received.length;
        const [d] = await deliveriesOf(h, h.actors.aTest, w.id);
        assert.equal(d!.status, 'failed');
        await new Promise((r) => setTimeout(r, 1500));
        const n = rx.received.length;
        assert.ok(n - atDisable <= 1, `at most the attempt in flight: ${n - atDisable}`);
        await new Promise((r) => setTimeout(r, 1500));
        assert.equal(rx.received.length, n, 'no call after disabling');

        const w2 = await createWebhook(h, h.actors.aTest, rx.url, ['form.created']);
        await newForm();
        await waitFor('an attempt to the second webhook', () => rx.received.length > n);
        await h.request({ method: 'DELETE', url: `/api/v1/webhooks/${w2.id}`, as: h.actors.aTest });
        const m = rx.received.length;
        // An attempt the worker had already started when the DELETE committed may still land (a request
        // on the wire cannot be recalled); nothing starts after it.
        await new Promise((r) => setTimeout(r, 1500));
        const settled = rx.received.length;
        assert.ok(settled - m <= 1, `at most the attempt in flight: ${settled - m}`);
        await new Promise((r) => setTimeout(r, 1500));
        assert.equal(rx.received.length, settled, 'no call after deleting');
        const row = await h.deps.database.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', w2.id).executeTakeFirstOrThrow();
        assert.equal(row.status, 'failed');
      } finally {
        await rx.close();
      }
    });

    it('after a rotation deliveries carry a v1 for the new and for the old secret, each verifying', async () => {
      const rx = await startReceiver();
      try {
        const w = await createWebhook(h, h.actors.aTest, rx.url, ['form.created']);
        const rotated = (await h.request({ method: 'POST', url: `/api/v1/webhooks/${w.id}/rotate-secret`, as: h.actors.aTest })).json<{ signing_secret: string }>();
        await newForm();
        await waitFor('a delivery', () => rx.received.length >= 1);
        const r = rx.received[0]!;
        const { t, v1 } = signaturesOf(r);
        assert.deepEqual(v1, [expectedSignature(rotated.signing_secret, t, r.raw), expectedSignature(w.signing_secret, t, r.raw)]);
        verifyWebhook(r.raw, r.headers['service-signature'] as string, rotated.signing_secret);
        verifyWebhook(r.raw, r.headers['service-signature'] as string, w.signing_secret);
      } finally {
        await rx.close();
      }
    });
  });
}
