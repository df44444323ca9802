import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enqueue } from '../../src/outbox/enqueue.js';
import { formSeal } from '../../src/outbox/jobs/form-seal.job.js';
import { createHarness, DIALECTS, type Harness } from '../harness.js';
import { FakeClock, seedSentMessage } from '../outbox/support/sending.js';
import { seedTemplate } from '../shared/seed.js';
import { startReceiver } from '../webhooks/support/receiver.js';
import { createWebhook } from '../webhooks/support/webhooks.js';
import { closedPort } from '../shared/tcp-proxy.js';

// What an operator watches in /metrics (README "Running at scale"): the queue per job kind, how long
// the oldest due job has waited for a worker, seal failures, delivery failures per channel. Each is
// driven here by the real thing: a job nobody runs, an SMTP server that refuses, a webhook receiver
// answering 500, a seal whose source PDF is gone. (Rate-limiter fail-opens: test/limits/redis.test.ts.)

/** The value of one sample in the exposition text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

for (const dialect of DIALECTS) {
  describe(`operations metrics (${dialect})`, () => {
    let h: Harness;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    const clock = new FakeClock(Date.parse('2026-11-27T10:00:00.000Z'));
    const scrape = async () => (await h.deps.metrics.render()).body;

    before(async () => {
      receiver = await startReceiver(() => ({ status: 500 }));
      h = await createHarness(dialect, { clock, env: { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    });
    after(async () => {
      await h.close();
      await receiver.close();
    });

    it('queue depth and the oldest due job per kind, then seal, message and webhook failures as they happen', async () => {
      const p = h.actors.aTest.partition;
      await createWebhook(h, h.actors.aTest, receiver.url, ['form.created']);
      const templateId = await seedTemplate(h, p, 'Lease', clock.now().toISOString());
      const sent = await seedSentMessage(h.deps.domain, p, templateId, { channel: 'email', to: 'ann@example.com' });

      let text = await scrape();
      assert.equal(sample(text, 'formsign_outbox_jobs{kind="message.deliver",status="pending"}'), 1);
      assert.equal(sample(text, 'formsign_outbox_oldest_due_seconds{kind="message.deliver"}'), 0);
      for (const channel of ['webhook', 'message']) assert.equal(sample(text, `formsign_delivery_failures_total{channel="${channel}"}`), undefined);
      assert.match(text, /^# TYPE formsign_seal_failures_total counter$/m);

      // No worker runs: the job has waited 90 s, and the gauge says so.
      clock.advance(90_000);
      text = await scrape();
      assert.equal(sample(text, 'formsign_outbox_oldest_due_seconds{kind="message.deliver"}'), 90);

      // A seal that cannot succeed: every recipient signed, but the form's source PDF is gone.
      const now = clock.now().toISOString();
      await h.deps.database.transact(async (trx) => {
        await trx.updateTable('recipients').set({ status: 'signed', signed_at: now }).where('id', '=', sent.recipientId).execute();
        await enqueue(trx, p, formSeal, { form_id: sent.form.id }, { now });
      });
      await h.deps.domain.blobs.delete(sent.form.pdf_key);

      await h.deps.worker.runDue();
      text = await scrape();
      assert.equal(sample(text, 'formsign_delivery_failures_total{channel="message"}'), 1, 'the refused SMTP attempt');
      assert.ok((sample(text, 'formsign_delivery_failures_total{channel="webhook"}') ?? 0) >= 1, `the receiver's 500: ${text.split('\n').filter((l) => l.includes('delivery_failures')).join('\n')}`);
      assert.ok(receiver.received.length >= 1, 'the webhook was attempted');
      assert.equal(sample(text, 'formsign_seal_failures_total{final="false"}'), 1);
      assert.equal(sample(text, 'formsign_seal_failures_total{final="true"}'), undefined);
      // The failed jobs wait for their retry: not due, so the kind drops to 0 rather than vanishing.
      assert.equal(sample(text, 'formsign_outbox_jobs{kind="message.deliver",status="failed"}'), 1);
      assert.equal(sample(text, 'formsign_outbox_jobs{kind="form.seal",status="failed"}'), 1);
      assert.equal(sample(text, 'formsign_outbox_oldest_due_seconds{kind="message.deliver"}'), 0);
      const form = await h.deps.database.db.selectFrom('forms').select(['sealing_status', 'sealing_error']).where('id', '=', sent.form.id).executeTakeFirstOrThrow();
      assert.equal(form.sealing_status, 'pending');
      assert.match(String(form.sealing_error), /missing from the blob store/);
    });
  });
}
