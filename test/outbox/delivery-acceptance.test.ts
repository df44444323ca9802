import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { messageDeliveryHandler } from '../../src/domain/sending/deliver-message.js';
import { createSmtpEmailSender } from '../../src/providers/email/index.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';
import { seedSentMessage, startSmtpSink } from './support/sending.js';

// Issue 35, item 7: an e-mail accepted by the SMTP server (250 after DATA) whose job then fails to
// commit its completion (a database fault) was sent again when the job ran again. The acceptance is now
// recorded in a short commit of its own right after the 250: the job's second run sends nothing.

for (const dialect of DIALECTS) {
  describe(`an accepted e-mail is recorded at once (${dialect})`, () => {
    let h: Harness;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    before(async () => {
      sink = await startSmtpSink();
      h = await createHarness(dialect, { env: { SMTP_URL: sink.url, MAIL_FROM: 'Acme via Formsign <sign@acme.test>' } });
    });
    after(async () => {
      await h.close();
      await sink.close();
    });

    it("a job whose completion does not commit does not send its message twice", async () => {
      const p = h.actors.aTest.partition;
      const templateId = await seedTemplate(h, p, 'Lease', new Date().toISOString());
      const sent = await seedSentMessage(h.deps.domain, p, templateId, { channel: 'email', to: 'ada@example.com', name: 'Ada' });
      const email = createSmtpEmailSender({ url: sink.url, from: 'Acme via Formsign <sign@acme.test>', maxConnections: 1 });
      try {
        const handler = messageDeliveryHandler({ db: h.deps.domain.db, transact: h.deps.domain.transact, clock: h.deps.domain.clock, email, sms: { transport: 'none', send: () => Promise.reject(new Error('no sms')) } as never, blobs: h.deps.domain.blobs });
        const ctx = (attempt: number) => ({ jobId: sent.jobId, partition: p, attempt, maxAttempts: 5, startedAt: new Date(), signal: new AbortController().signal });
        // First run: the server accepts; the job's own commit (the outcome it returns) never happens,
        // as when the database fails at that moment.
        await handler.run({ message_id: sent.messageId }, ctx(1));
        assert.equal(sink.received.length, 1);
        const message = await h.deps.database.db.selectFrom('messages').selectAll().where('id', '=', sent.messageId).executeTakeFirstOrThrow();
        assert.equal(message.status, 'delivered', 'the acceptance is on record without the job commit');
        const recipient = await h.deps.database.db.selectFrom('recipients').selectAll().where('id', '=', sent.recipientId).executeTakeFirstOrThrow();
        assert.equal(recipient.delivery_status, 'delivered');
        // The job runs again (its lease ran out): nothing is sent a second time.
        await handler.run({ message_id: sent.messageId }, ctx(2));
        assert.equal(sink.received.length, 1, 'one e-mail');
        assert.match(sink.received[0]!.parsed.messageId ?? '', new RegExp(`^<${sent.messageId}@`), 'its Message-ID is the message id (a duplicate would carry the same)');
      } finally {
        await email.close();
      }
    });
  });
}
