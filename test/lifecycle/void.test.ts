import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { FakeClock, startSmtpSink } from '../outbox/support/sending.js';
import { startTwilioServer } from '../outbox/support/twilio.js';
import { twoSignerTemplate } from '../signing/support.js';
import { startReceiver } from '../webhooks/support/receiver.js';
import { createWebhook, expectedSignature, signaturesOf } from '../webhooks/support/webhooks.js';
import { createAndSend, eventTypes, openLink, pageText, postDecline, postSign, signatureOf, tokenOf, untilSigned } from './support.js';

// Void (issue #23 item 4): a sent or viewed form is withdrawn; its links answer 410, each recipient who
// was messaged gets a notice (e-mail over real SMTP, SMS through the Twilio-wire fake), `form.voided`
// reaches a webhook, and a form in any other status answers 409 form_not_voidable.

const T0 = '2026-06-01T12:00:00.000Z';
const SID = 'AC0123456789abcdef0123456789abcdef';

for (const dialect of DIALECTS) {
  describe(`void (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    let twilio: Awaited<ReturnType<typeof startTwilioServer>>;
    let rx: Awaited<ReturnType<typeof startReceiver>>;
    let templateId: string;

    before(async () => {
      sink = await startSmtpSink();
      twilio = await startTwilioServer();
      rx = await startReceiver();
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, {
        clock,
        env: {
          SMTP_URL: sink.url, SMS_PROVIDER_URL: twilio.url, SMS_ACCOUNT_SID: SID, SMS_AUTH_TOKEN: 'tok3n', SMS_FROM: '+15005550006',
          BASE_URL: 'https://sign.acme.test', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001',
        },
      });
      templateId = await twoSignerTemplate(h, h.actors.aTest.partition);
    });
    after(async () => {
      await h.close();
      await sink.close();
      await twilio.close();
      await rx.close();
    });

    const drain = async (until: () => boolean) => {
      for (let i = 0; i < 10 && !until(); i++) await h.deps.worker.runDue();
    };

    it('a viewed form is voided: status and reason, notices by e-mail and SMS, links 410, form.voided delivered and signed', async () => {
      const as = h.actors.aTest;
      const hook = await createWebhook(h, as, rx.url, ['form.voided']);
      const { form } = await createAndSend(h, as, templateId, {
        recipients: [{ email: 'ada@example.com', channel: 'email', name: 'Ada' }, { phone: '+14155550123', channel: 'sms', name: 'Sam' }],
      });
      const tokens = form.recipients.map((r) => tokenOf(r.signing_url));
      assert.equal((await openLink(h, tokens[0]!)).statusCode, 200);
      await h.deps.worker.runDue();
      const mailsBefore = sink.received.length;
      const smsBefore = twilio.requests.length;

      clock.advance(60_000);
      const res = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/void`, as, json: { reason: 'Wrong rent amount; a corrected lease follows.' } });
      assert.equal(res.status, 200, res.body);
      const voided = res.json<{ status: string; voided_at: string; void_reason: string }>();
      assert.deepEqual([voided.status, voided.voided_at, voided.void_reason], ['voided', clock.now().toISOString(), 'Wrong rent amount; a corrected lease follows.']);

      await drain(() => rx.received.length > 0 && sink.received.length > mailsBefore && twilio.requests.length > smsBefore);
      const mail = sink.received.slice(mailsBefore);
      assert.equal(mail.length, 1);
      assert.deepEqual(mail[0]!.envelopeTo, ['ada@example.com']);
      assert.equal(mail[0]!.parsed.subject, 'Withdrawn: "Residential lease" from Account A');
      assert.match(mail[0]!.parsed.text ?? '', /Account A withdrew the request to sign "Residential lease"\. The signing link no longer works/);
      assert.match(mail[0]!.parsed.text ?? '', /Reason given: Wrong rent amount; a corrected lease follows\./);
      const sms = twilio.requests.slice(smsBefore);
      assert.deepEqual(sms.map((r) => [r.form['To'], r.form['Body']]), [['+14155550123', 'Account A withdrew "Residential lease": there is nothing to sign any more.']]);

      // The webhook: signed with the secret, carrying the voided form.
      const got = rx.received[0]!;
      assert.equal(got.headers['service-event-type'], 'form.voided');
      const sig = signaturesOf(got);
      assert.ok(sig.v1.includes(expectedSignature(hook.signing_secret, sig.t, got.raw)), 'the signature verifies');
      const event = JSON.parse(got.raw.toString('utf8')) as { type: string; data: { object: { id: string; status: string; void_reason: string } } };
      assert.deepEqual([event.type, event.data.object.id, event.data.object.status, event.data.object.void_reason], ['form.voided', form.id, 'voided', 'Wrong rent amount; a corrected lease follows.']);
      assert.equal((await eventTypes(h, as, form.id)).at(-1), 'form.voided');

      // Every link stops: a page saying so on GET, clean refusals on what the page posts.
      for (const token of tokens) {
        const page = await openLink(h, token);
        assert.equal(page.statusCode, 410);
        assert.match(pageText(page.body), /This request was withdrawn/);
        assert.match(pageText(page.body), /Account A withdrew "Residential lease"/);
        const post = await postSign(h, token, signatureOf(1));
        assert.equal(post.statusCode, 409, post.body);
        assert.equal((await postDecline(h, token, {})).statusCode, 409);
        assert.equal((await h.app.inject({ url: `/sign/${token}/document.pdf` })).statusCode, 409);
      }
      // And every later action of the API refuses cleanly.
      const again = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/void`, as, json: {} });
      assert.deepEqual([again.status, errorOf(again).code], [409, 'form_not_voidable']);
      const send = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as, json: { recipients: [{ email: 'new@example.com', channel: 'email' }] } });
      assert.deepEqual([send.status, errorOf(send).code], [409, 'form_not_sendable']);
      const pdf = await h.request({ url: `/api/v1/forms/${form.id}/signed-pdf?format=base64`, as });
      assert.deepEqual([pdf.status, errorOf(pdf).code], [409, 'form_not_signed']);
      const listed = await h.request({ url: '/api/v1/forms?status=voided', as });
      assert.deepEqual(listed.json<{ data: Array<{ id: string }> }>().data.map((f) => f.id), [form.id]);
    });

    it('only sent or viewed forms: a draft, a signed form and a form past expiry answer 409 form_not_voidable; a reason over 500 characters is 400', async () => {
      const as = h.actors.aTest;
      const draft = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } });
      const voidDraft = await h.request({ method: 'POST', url: `/api/v1/forms/${draft.json<{ id: string }>().id}/void`, as });
      assert.deepEqual([voidDraft.status, errorOf(voidDraft).code], [409, 'form_not_voidable']);

      const { form } = await createAndSend(h, as, templateId, { recipients: [{ email: 'ten@example.com', channel: 'email' }, { email: 'lan@example.com', channel: 'email' }] });
      const long = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/void`, as, json: { reason: 'x'.repeat(501) } });
      assert.deepEqual([long.status, errorOf(long).code], [400, 'parameter_invalid']);
      for (const [i, slot] of [[0, 1], [1, 2]] as const) assert.equal((await postSign(h, tokenOf(form.recipients[i]!.signing_url), signatureOf(slot))).statusCode, 200);
      assert.equal((await untilSigned(h, as, form.id, clock)).status, 'signed');
      const voidSigned = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/void`, as, json: { reason: 'too late' } });
      assert.deepEqual([voidSigned.status, errorOf(voidSigned).code], [409, 'form_not_voidable']);
      assert.match(errorOf(voidSigned).message, /This form is signed/);

      const { form: old } = await createAndSend(h, as, templateId, { recipients: [{ email: 'old@example.com', channel: 'email' }] });
      clock.advance(31 * 86_400_000);
      const voidExpired = await h.request({ method: 'POST', url: `/api/v1/forms/${old.id}/void`, as, json: {} });
      assert.deepEqual([voidExpired.status, errorOf(voidExpired).code], [409, 'form_not_voidable']);
      const other = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/void`, as: h.actors.bTest, json: {} });
      assert.deepEqual([other.status, errorOf(other).code], [404, 'resource_not_found']);
    });
  });
}
