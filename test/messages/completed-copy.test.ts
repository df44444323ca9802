import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setNotifySettings } from '../../src/domain/accounts/notify-settings.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { startSmtpSink, type ReceivedMail } from '../outbox/support/sending.js';
import { startTwilioServer } from '../outbox/support/twilio.js';
import { pdfsig } from '../shared/pdf-tools.js';
import { twoSignerTemplate } from '../signing/support.js';
import { drain, mailsTo, openLink, sendForm, signBoth, signedPdfBytes } from './support.js';

// The completed copy and the sender's notices end to end: real SMTP to an in-process server, the
// Twilio-wire fake for SMS, the seal job in the PDF pool, and the messages it leaves behind.

const SID = 'AC0123456789abcdef0123456789abcdef';
const NOTIFY = 'contracts@acme.test';

/** The one attachment of a mail, or a failure naming what it had. */
function onlyPdf(mail: ReceivedMail): Buffer {
  const pdfs = mail.parsed.attachments.filter((a) => a.contentType === 'application/pdf');
  assert.equal(pdfs.length, 1, `one PDF attached to "${mail.parsed.subject}"`);
  return pdfs[0]!.content;
}

function assertFromAndReplyTo(mail: ReceivedMail, accountName: string, replyTo: string | null): void {
  assert.deepEqual(mail.parsed.from?.value, [{ name: `${accountName} via Formsign`, address: 'sign@formsign.test' }]);
  if (replyTo === null) assert.equal(mail.parsed.replyTo, undefined);
  else assert.deepEqual(mail.parsed.replyTo?.value.map((v) => v.address), [replyTo]);
  assert.ok((mail.parsed.text ?? '').length > 0, 'a text part');
  assert.ok(String(mail.parsed.html).includes('<html'), 'an HTML part');
}

for (const dialect of DIALECTS) {
  describe(`the completed copy and the sender's notices (${dialect})`, () => {
    let h: Harness;
    let small: Harness;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    let twilio: Awaited<ReturnType<typeof startTwilioServer>>;
    let templateId: string;

    before(async () => {
      sink = await startSmtpSink();
      twilio = await startTwilioServer();
      const env = { SMTP_URL: sink.url, MAIL_FROM: 'Formsign <sign@formsign.test>', SMS_PROVIDER_URL: twilio.url, SMS_ACCOUNT_SID: SID, SMS_AUTH_TOKEN: 'tok3n', SMS_FROM: '+15005550006', BASE_URL: 'https://sign.acme.test' };
      h = await createHarness(dialect, { env });
      // A threshold of 1,000 bytes: every sealed PDF is "too large to attach", as a 10 MB one would be.
      small = await createHarness(dialect, { env: { ...env, MAIL_ATTACH_MAX_BYTES: '1000' } });
      templateId = await twoSignerTemplate(h, h.actors.aTest.partition);
      await setNotifySettings(h.deps.domain, h.actors.aTest.partition.accountId, { notify_email: NOTIFY, notify_viewed: true });
    });
    after(async () => {
      await h.close();
      await small.close();
      await sink.close();
      await twilio.close();
    });

    it('e-mail recipients get the sealed PDF attached (the bytes the API serves, pdfsig-valid), SMS recipients a link that downloads it; the notify_email gets completed and viewed notices', async () => {
      const as = h.actors.aTest;
      const f = await sendForm(h, as, templateId, [
        { channel: 'email', email: 'ada@example.com', name: 'Ada Lovelace' },
        { channel: 'sms', phone: '+14155550123', name: 'Charles Babbage' },
      ]);
      await drain(h);
      const invite = mailsTo(sink.received, 'ada@example.com');
      assert.equal(invite.length, 1, 'the invitation');
      assertFromAndReplyTo(invite[0]!, 'Account A', NOTIFY);

      for (const token of f.tokens) assert.equal((await openLink(h, token)).statusCode, 200);
      await drain(h);
      const viewed = mailsTo(sink.received, NOTIFY).filter((m) => m.parsed.subject?.startsWith('Viewed:'));
      assert.deepEqual(viewed.map((m) => m.parsed.subject).sort(), ['Viewed: Ada Lovelace opened "Residential lease"', 'Viewed: Charles Babbage opened "Residential lease"']);

      const smsBefore = twilio.requests.length;
      await signBoth(h, f);
      await drain(h);
      const pdf = await signedPdfBytes(h, as, f.formId);
      assert.match(pdfsig(pdf), /Signature is Valid\./);

      // The e-mail copy: one, with the very bytes of the signed PDF.
      const copies = mailsTo(sink.received, 'ada@example.com').filter((m) => m.parsed.subject === 'Your signed copy of "Residential lease"');
      assert.equal(copies.length, 1);
      const copy = copies[0]!;
      assertFromAndReplyTo(copy, 'Account A', NOTIFY);
      assert.ok(onlyPdf(copy).equals(pdf), 'the attachment is byte for byte the signed PDF');
      assert.equal(copy.parsed.attachments[0]!.filename, `${f.formId}-signed.pdf`);
      assert.match(copy.parsed.text ?? '', /^Hello Ada Lovelace,\n\nEveryone has signed "Residential lease"\. The signed PDF is attached to this e-mail/);
      const footer = 'You received this e-mail because you signed "Residential lease", sent by Account A to ada@example.com through Formsign.';
      assert.ok((copy.parsed.text ?? '').trimEnd().endsWith(footer), copy.parsed.text);
      assert.ok(String(copy.parsed.html).includes('You received this e-mail because you signed &quot;Residential lease&quot;, sent by Account A'));

      // The SMS copy: a link that downloads the same PDF for 30 days, with no key.
      const sms = twilio.requests.slice(smsBefore).filter((r) => r.form['To'] === '+14155550123');
      assert.equal(sms.length, 1);
      const link = /Your signed copy of "Residential lease" from Account A: (https:\/\/sign\.acme\.test\/api\/v1\/files\/pdf\/\S+)$/.exec(sms[0]!.form['Body'] ?? '')?.[1];
      assert.ok(link, sms[0]!.form['Body']);
      const download = await h.app.inject({ method: 'GET', url: link.replace('https://sign.acme.test', '') });
      assert.equal(download.statusCode, 200);
      assert.equal(download.headers['content-type'], 'application/pdf');
      assert.ok(download.rawPayload.equals(pdf));

      // The notify_email: the completed notice with the PDF.
      const completed = mailsTo(sink.received, NOTIFY).filter((m) => m.parsed.subject === 'Completed: "Residential lease"');
      assert.equal(completed.length, 1);
      assertFromAndReplyTo(completed[0]!, 'Account A', NOTIFY);
      assert.ok(onlyPdf(completed[0]!).equals(pdf));
      assert.match(completed[0]!.parsed.text ?? '', /Everyone has signed "Residential lease": Ada Lovelace, Charles Babbage\./);
      assert.match(completed[0]!.parsed.text ?? '', new RegExp(`You received this e-mail because ${NOTIFY} is the notification address of Account A on Formsign \\(form ${f.formId}\\)\\.`));

      // The invitation's recipient shows its invitation's delivery, untouched by the copy's.
      const stored = await h.deps.database.db.selectFrom('messages').select(['kind', 'channel', 'status', 'recipient_id']).where('form_id', '=', f.formId).execute();
      const kinds = stored.map((m) => `${m.kind}:${m.channel}`).sort();
      assert.deepEqual(kinds, ['completed_copy:email', 'completed_copy:sms', 'invite:email', 'invite:sms', 'notice_completed:email', 'notice_viewed:email', 'notice_viewed:email']);
      assert.ok(stored.every((m) => m.status === 'delivered'));
      assert.equal(stored.find((m) => m.kind === 'notice_completed')?.recipient_id, null);
    });

    it('notify: {completed_copy: false} → no copy for the recipients; the notify_email is still told', async () => {
      const as = h.actors.aTest;
      const f = await sendForm(h, as, templateId, [{ channel: 'email', email: 'nocopy1@example.com' }, { channel: 'sms', phone: '+14155550124' }], { completed_copy: false });
      const smsBefore = twilio.requests.length;
      await signBoth(h, f);
      await drain(h);
      assert.equal((await h.request({ url: `/api/v1/forms/${f.formId}`, as })).json<{ status: string }>().status, 'signed');
      assert.deepEqual(mailsTo(sink.received, 'nocopy1@example.com').map((m) => m.parsed.subject), ['Account A asks you to sign "Residential lease"']);
      assert.deepEqual(twilio.requests.slice(smsBefore).filter((r) => /signed copy/.test(r.form['Body'] ?? '')), []);
      const copies = await h.deps.database.db.selectFrom('messages').select('kind').where('form_id', '=', f.formId).where('kind', '=', 'completed_copy').execute();
      assert.equal(copies.length, 0);
      const notice = await h.deps.database.db.selectFrom('messages').select(['to_address', 'status']).where('form_id', '=', f.formId).where('kind', '=', 'notice_completed').execute();
      assert.deepEqual(notice, [{ to_address: NOTIFY, status: 'delivered' }]);
    });

    it('above the attachment limit the copy and the notice carry a download link valid 30 days instead of the file', async () => {
      const as = small.actors.aTest;
      const tmpl = await twoSignerTemplate(small, as.partition);
      await setNotifySettings(small.deps.domain, as.partition.accountId, { notify_email: 'big@acme.test' });
      const f = await sendForm(small, as, tmpl, [{ channel: 'email', email: 'big1@example.com', name: 'Ada' }, { channel: 'email', email: 'big2@example.com' }]);
      await signBoth(small, f);
      await drain(small);
      const pdf = await signedPdfBytes(small, as, f.formId);
      assert.ok(pdf.byteLength > 1000);
      for (const address of ['big1@example.com', 'big2@example.com', 'big@acme.test']) {
        const mail = mailsTo(sink.received, address).find((m) => /signed copy|Completed/.test(m.parsed.subject ?? ''));
        assert.ok(mail, `a copy or notice to ${address}`);
        assert.deepEqual(mail.parsed.attachments, [], 'nothing attached');
        const text = mail.parsed.text ?? '';
        const link = /Download the signed PDF: (https:\/\/sign\.acme\.test\/api\/v1\/files\/pdf\/\S+)/.exec(text)?.[1];
        assert.ok(link, text);
        assert.ok(String(mail.parsed.html).includes(`href="${link}"`), 'the button points to the same link');
        const created = await small.deps.database.db.selectFrom('messages').select('created_at').where('to_address', '=', address).where('kind', '!=', 'invite').executeTakeFirstOrThrow();
        const until = new Date(Date.parse(created.created_at) + 30 * 86_400_000);
        const expected = `${until.getUTCDate()} ${until.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })} ${until.getUTCFullYear()}`;
        assert.ok(text.includes(`This link works until ${expected}, `), `${text} (expected ${expected})`);
        const download = await small.app.inject({ method: 'GET', url: link.replace('https://sign.acme.test', '') });
        assert.equal(download.statusCode, 200);
        assert.ok(download.rawPayload.equals(pdf));
      }
      // The link's clock: 30 days and a second later it has expired.
      const token = /files\/pdf\/(\S+)/.exec(mailsTo(sink.received, 'big1@example.com').at(-1)!.parsed.text ?? '')![1]!;
      const later = small.deps.domain.fileLinks.check(token, Math.floor(Date.now() / 1000) + 30 * 86_400 + 5);
      assert.deepEqual(later, { ok: false, reason: 'expired' });
      assert.equal(small.deps.domain.fileLinks.check(token, Math.floor(Date.now() / 1000) + 29 * 86_400).ok, true);
    });
  });
}
