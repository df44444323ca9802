// test-runner: own-process — it replaces process.stdout.write to read what the CLI prints
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OUTBOX_COMMANDS } from '../../src/cli/outbox-commands.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';
import { FakeClock, seedSentMessage, startSmtpSink } from './support/sending.js';
import { startTwilioServer } from './support/twilio.js';

// The message.deliver job end to end: a composed message goes out through a real SMTP conversation
// or a Twilio-compatible API, and the outcome shows on the message and the recipient.

const T0 = '2026-04-01T09:00:00.000Z';
const SID = 'AC0123456789abcdef0123456789abcdef';

async function stateOf(h: Harness, messageId: string, recipientId: string) {
  const message = await h.deps.database.db.selectFrom('messages').selectAll().where('id', '=', messageId).executeTakeFirstOrThrow();
  const recipient = await h.deps.database.db.selectFrom('recipients').selectAll().where('id', '=', recipientId).executeTakeFirstOrThrow();
  const job = await h.deps.database.db.selectFrom('outbox').selectAll().where('kind', '=', 'message.deliver').where('payload', 'like', `%${messageId}%`).executeTakeFirstOrThrow();
  return { message, recipient, job };
}

async function captureStdout(fn: () => Promise<void>): Promise<string> {
  const write = process.stdout.write.bind(process.stdout);
  let out = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    await fn();
  } finally {
    process.stdout.write = write;
  }
  return out;
}

for (const dialect of DIALECTS) {
  describe(`message delivery (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    let templateId: string;
    let refuseNext = 0;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    let twilio: Awaited<ReturnType<typeof startTwilioServer>>;
    let twilioFails = false;

    before(async () => {
      sink = await startSmtpSink({ auth: { user: 'mailer@acme.test', pass: 'p@ss:w/rd' }, onData: () => (refuseNext-- > 0 ? 'refuse' : 'accept') });
      twilio = await startTwilioServer(() =>
        twilioFails
          ? { status: 400, body: { code: 21211, message: "The 'To' number +15005550001 is not a valid phone number.", more_info: 'https://www.twilio.com/docs/errors/21211', status: 400 } }
          : { status: 201, body: {} },
      );
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, {
        clock,
        env: { SMTP_URL: sink.url, MAIL_FROM: 'Acme via Formsign <sign@acme.test>', SMS_PROVIDER_URL: twilio.url, SMS_ACCOUNT_SID: SID, SMS_AUTH_TOKEN: 'tok3n', SMS_FROM: '+15005550006', BASE_URL: 'https://sign.acme.test' },
      });
      templateId = await seedTemplate(h, h.actors.aTest.partition, 'Lease', T0);
    });
    after(async () => {
      await h.close();
      await sink.close();
      await twilio.close();
    });

    it('an e-mail goes out over SMTP (auth from the URL): subject, both parts, the link to this recipient, our Message-ID', async () => {
      const p = h.actors.aTest.partition;
      const sent = await seedSentMessage(h.deps.domain, p, templateId, { channel: 'email', to: 'ada@example.com', name: 'Ada Lovelace' });
      const before = sink.received.length;
      await h.deps.worker.runDue();
      assert.equal(sink.received.length, before + 1);
      const mail = sink.received.at(-1)!;
      assert.deepEqual(mail.envelopeTo, ['ada@example.com']);
      assert.ok(sink.logins.includes('mailer@acme.test'), 'authenticated with the percent-decoded user of SMTP_URL');
      assert.equal(mail.parsed.subject, 'Acme Rentals asks you to sign "Lease <agreement> & annex"');
      assert.equal(mail.parsed.messageId, `<${sent.messageId}@acme.test>`);
      assert.equal(mail.parsed.from?.value[0]?.address, 'sign@acme.test');
      assert.match(sent.signingUrl, /^https:\/\/sign\.acme\.test\/sign\/[A-Za-z0-9_-]{43}$/);
      const text = mail.parsed.text ?? '';
      assert.match(text, /^Hello Ada Lovelace,/);
      assert.ok(text.includes(`Open the form: ${sent.signingUrl}`), text);
      assert.match(text, /This link works until 1 May 2026, 09:00 UTC\./);
      const html = String(mail.parsed.html);
      assert.ok(html.includes(`href="${sent.signingUrl}"`), 'the button and the written-out link point to the signing page');
      assert.ok(html.includes('Lease &lt;agreement&gt; &amp; annex'), 'the form name is escaped in HTML');
      assert.ok(!html.includes('<agreement>'));

      // Following the link: its token resolves to this recipient of this form.
      const token = sent.signingUrl.split('/').pop()!;
      const found = await h.deps.database.db.selectFrom('recipients').select(['id', 'form_id']).where('token_hash', '=', h.deps.domain.links.tokenHash(token)).executeTakeFirst();
      assert.deepEqual(found, { id: sent.recipientId, form_id: sent.form.id });

      const s = await stateOf(h, sent.messageId, sent.recipientId);
      assert.deepEqual([s.message.status, s.message.transport, s.message.provider_message_id, s.message.delivered_at], ['delivered', 'smtp', `<${sent.messageId}@acme.test>`, T0]);
      assert.deepEqual([s.recipient.delivery_status, s.recipient.delivery_error], ['delivered', null]);
      assert.equal(s.job.status, 'done');
    });

    it('a mail server that refuses (5xx): the job is retried, delivery_status shows the failure, then the retry delivers', async () => {
      const p = h.actors.aTest.partition;
      const sent = await seedSentMessage(h.deps.domain, p, templateId, { channel: 'email', to: 'grace@example.com' });
      refuseNext = 1;
      const before = sink.received.length;
      await h.deps.worker.runDue();
      let s = await stateOf(h, sent.messageId, sent.recipientId);
      assert.equal(sink.received.length, before);
      assert.deepEqual([s.job.status, Number(s.job.attempts)], ['failed', 1]);
      assert.equal(s.recipient.delivery_status, 'failed');
      assert.match(s.recipient.delivery_error ?? '', /^The mail server refused the message: 554 5\.7\.1 Message rejected by policy \(attempt 1 of 10; next attempt at 2026-/);
      assert.equal(s.message.status, 'failed');
      assert.equal(s.message.error, s.recipient.delivery_error);

      clock.advance(3_600_000);
      await h.deps.worker.runDue();
      s = await stateOf(h, sent.messageId, sent.recipientId);
      assert.equal(sink.received.length, before + 1);
      assert.deepEqual([s.job.status, Number(s.job.attempts)], ['done', 2]);
      assert.deepEqual([s.recipient.delivery_status, s.recipient.delivery_error, s.message.status, s.message.error], ['delivered', null, 'delivered', null]);
    });

    it('an SMS goes out through the Twilio Messages API: basic auth, form fields, the link', async () => {
      const p = h.actors.aTest.partition;
      const sent = await seedSentMessage(h.deps.domain, p, templateId, { channel: 'sms', to: '+14155550123', name: 'Ada' });
      twilioFails = false;
      const before = twilio.requests.length;
      await h.deps.worker.runDue();
      assert.equal(twilio.requests.length, before + 1);
      const r = twilio.requests.at(-1)!;
      assert.equal(r.method, 'POST');
      assert.equal(r.path, `/2010-04-01/Accounts/${SID}/Messages.json`);
      assert.equal(r.authorization, `Basic ${Buffer.from(`${SID}:tok3n`).toString('base64')}`);
      assert.equal(r.contentType, 'application/x-www-form-urlencoded');
      assert.deepEqual(Object.keys(r.form).sort(), ['Body', 'From', 'To']);
      assert.equal(r.form['To'], '+14155550123');
      assert.equal(r.form['From'], '+15005550006');
      assert.equal(r.form['Body'], `Acme Rentals asks you to sign "Lease <agreement> & annex": ${sent.signingUrl}`);
      const s = await stateOf(h, sent.messageId, sent.recipientId);
      assert.deepEqual([s.message.status, s.message.transport, s.message.provider_message_id], ['delivered', 'sms', `SM${String(twilio.requests.length).padStart(32, '0')}`]);
      assert.equal(s.recipient.delivery_status, 'delivered');
    });

    it('a gateway error keeps Twilio’s code on the recipient while the job retries', async () => {
      const p = h.actors.aTest.partition;
      const sent = await seedSentMessage(h.deps.domain, p, templateId, { channel: 'sms', to: '+15005550001' });
      twilioFails = true;
      await h.deps.worker.runDue();
      twilioFails = false;
      const s = await stateOf(h, sent.messageId, sent.recipientId);
      assert.equal(s.job.status, 'failed');
      assert.equal(s.recipient.delivery_status, 'failed');
      assert.match(s.recipient.delivery_error ?? '', /^The SMS gateway refused the message \(HTTP 400, error 21211\): The 'To' number \+15005550001 is not a valid phone number\./);
    });
  });

  describe(`message delivery without a mail server or gateway (${dialect})`, () => {
    let h: Harness;
    let down: Harness;
    before(async () => {
      h = await createHarness(dialect);
      down = await createHarness(dialect, { env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
    });
    after(async () => {
      await h.close();
      await down.close();
    });

    it('unconfigured: messages stay in the dev outbox as delivered, listed by `outbox messages`', async () => {
      const p = h.actors.aTest.partition;
      const templateId = await seedTemplate(h, p, 'Lease', T0);
      const mail = await seedSentMessage(h.deps.domain, p, templateId, { channel: 'email', to: 'ada@example.com' });
      const sms = await seedSentMessage(h.deps.domain, p, templateId, { channel: 'sms', to: '+14155550123' });
      await h.deps.worker.runDue();
      for (const m of [mail, sms]) {
        const s = await stateOf(h, m.messageId, m.recipientId);
        assert.deepEqual([s.message.status, s.message.transport, s.message.provider_message_id, s.recipient.delivery_status], ['delivered', 'dev', null, 'delivered']);
      }
      const out = await captureStdout(() => OUTBOX_COMMANDS['outbox messages']!(h.deps, ['--json'], true));
      const listed = JSON.parse(out) as { data: Array<{ id: string; to: string; subject: string | null; link: string; text: string; status: string; transport: string }> };
      const byId = new Map(listed.data.map((m) => [m.id, m]));
      assert.deepEqual(
        { to: byId.get(mail.messageId)?.to, subject: byId.get(mail.messageId)?.subject, link: byId.get(mail.messageId)?.link, transport: byId.get(mail.messageId)?.transport },
        { to: 'ada@example.com', subject: 'Acme Rentals asks you to sign "Lease <agreement> & annex"', link: mail.signingUrl, transport: 'dev' },
      );
      assert.equal(byId.get(sms.messageId)?.link, sms.signingUrl);
      assert.equal(byId.get(sms.messageId)?.subject, null);
    });

    it('a mail server that is down: the attempt fails with a reason and the job stays for a retry', async () => {
      const p = down.actors.aTest.partition;
      const templateId = await seedTemplate(down, p, 'Lease', T0);
      const sent = await seedSentMessage(down.deps.domain, p, templateId, { channel: 'email', to: 'ada@example.com' });
      await down.deps.worker.runDue();
      const s = await stateOf(down, sent.messageId, sent.recipientId);
      assert.deepEqual([s.job.status, Number(s.job.attempts)], ['failed', 1]);
      assert.equal(s.recipient.delivery_status, 'failed');
      // Clients see the reason without the service's network details; the operator's record has them.
      assert.match(s.recipient.delivery_error ?? '', /^The mail server could not be reached; it is retried\. \(attempt 1 of 10; next attempt at /);
      assert.doesNotMatch(s.recipient.delivery_error ?? '', /ECONNREFUSED|127\.0\.0\.1/);
      const row = await down.deps.database.db.selectFrom('messages').select('error').where('id', '=', sent.messageId).executeTakeFirstOrThrow();
      assert.match(row.error ?? '', /^The mail server could not be reached: .*ECONNREFUSED/);
      const out = await captureStdout(() => OUTBOX_COMMANDS['outbox list']!(down.deps, ['--status', 'failed', '--json'], true));
      const jobs = (JSON.parse(out) as { data: Array<{ id: string; kind: string; last_error: string; payload: unknown }> }).data;
      assert.deepEqual(jobs.map((j) => [j.kind, j.payload]), [['message.deliver', { message_id: sent.messageId }]]);
      assert.match(jobs[0]?.last_error ?? '', /could not be reached/);
    });
  });
}
