import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { FakeClock } from '../outbox/support/sending.js';
import { twoSignerTemplate } from '../signing/support.js';
import { startReceiver } from '../webhooks/support/receiver.js';
import { createWebhook, expectedSignature, signaturesOf } from '../webhooks/support/webhooks.js';
import { createAndSend, eventTypes, getForm, openLink, pageText, postDecline, postSign, signatureOf, tokenOf, type FormBody } from './support.js';

// Decline (issue #23 item 3) through the HTTP calls the signing page makes: the page offers the
// button, its dialog posts to /sign/<token>/decline; the recipient and the form become `declined`,
// `form.declined` carries the reason, and every link answers 410 with a page naming who and when.

const T0 = '2026-07-06T09:30:00.000Z';

for (const dialect of DIALECTS) {
  describe(`decline (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    let rx: Awaited<ReturnType<typeof startReceiver>>;
    let templateId: string;

    before(async () => {
      rx = await startReceiver();
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, { clock, env: { BASE_URL: 'https://sign.acme.test', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001' } });
      templateId = await twoSignerTemplate(h, h.actors.aTest.partition);
    });
    after(async () => {
      await h.close();
      await rx.close();
    });

    it('the page offers Decline; its post declines the recipient and the form; form.declined carries the reason; every link 410', async () => {
      const as = h.actors.aTest;
      const hook = await createWebhook(h, as, rx.url, ['form.declined']);
      const { form } = await createAndSend(h, as, templateId, { recipients: [{ email: 'ada@example.com', channel: 'email', name: 'Ada Lovelace' }, { email: 'bob@example.com', channel: 'email' }] });
      const tokens = form.recipients.map((r) => tokenOf(r.signing_url));
      const page = await openLink(h, tokens[0]!);
      assert.equal(page.statusCode, 200);
      assert.ok(page.body.includes(`data-decline="/sign/${tokens[0]}/decline"`), 'the button posts to the link’s decline address');
      assert.match(pageText(page.body), /Decline to sign .* Reason \(optional\)/);

      clock.advance(5 * 60_000);
      const reason = 'The rent is not what we agreed — see my e-mail.';
      const res = await postDecline(h, tokens[0]!, { reason: `  ${reason} ` });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(JSON.parse(res.body), { status: 'declined', next: `/sign/${tokens[0]}` });
      const at = clock.now().toISOString();

      const now = await getForm(h, as, form.id);
      assert.equal(now.status, 'declined');
      assert.deepEqual([now.recipients[0]!.status, now.recipients[0]!.declined_at, now.recipients[0]!.decline_reason], ['declined', at, reason]);
      assert.deepEqual([now.recipients[1]!.status, now.recipients[1]!.declined_at], ['sent', null]);

      // The events list and the webhook: one form.declined whose Form shows the recipient's decline.
      assert.equal((await eventTypes(h, as, form.id)).filter((t) => t === 'form.declined').length, 1);
      for (let i = 0; i < 10 && rx.received.length === 0; i++) await h.deps.worker.runDue();
      const got = rx.received[0]!;
      assert.equal(got.headers['service-event-type'], 'form.declined');
      const sig = signaturesOf(got);
      assert.ok(sig.v1.includes(expectedSignature(hook.signing_secret, sig.t, got.raw)), 'the signature verifies');
      const body = JSON.parse(got.raw.toString('utf8')) as { data: { object: FormBody } };
      assert.equal(body.data.object.status, 'declined');
      assert.deepEqual([body.data.object.recipients[0]!.decline_reason, body.data.object.recipients[0]!.declined_at], [reason, at]);

      // Every link now answers 410 with who declined and when; posts are refused cleanly.
      for (const token of tokens) {
        const gone = await openLink(h, token);
        assert.equal(gone.statusCode, 410);
        assert.match(pageText(gone.body), /This request was declined/);
        assert.match(pageText(gone.body), /Ada Lovelace declined to sign it on 6 July 2026, 09:35 UTC/);
        assert.equal((await postSign(h, token, signatureOf(2))).statusCode, 409);
        assert.equal((await postDecline(h, token, {})).statusCode, 409);
      }
      const send = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as, json: { recipients: [{ email: 'cy@example.com', channel: 'email' }] } });
      assert.deepEqual([send.status, errorOf(send).code], [409, 'form_not_sendable']);
      const voided = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/void`, as, json: {} });
      assert.deepEqual([voided.status, errorOf(voided).code], [409, 'form_not_voidable']);
    });

    it('a reason over 500 characters is refused (nothing changes); no reason is fine; a signed recipient cannot decline; cross-site posts are refused', async () => {
      const as = h.actors.aTest;
      const { form } = await createAndSend(h, as, templateId, { recipients: [{ email: 'dee@example.com', channel: 'email' }, { email: 'eve@example.com', channel: 'email' }] });
      const tokens = form.recipients.map((r) => tokenOf(r.signing_url));
      const long = await postDecline(h, tokens[1]!, { reason: 'é'.repeat(501) });
      assert.equal(long.statusCode, 400);
      assert.deepEqual([JSON.parse(long.body).error.code, JSON.parse(long.body).error.param], ['parameter_invalid', 'reason']);
      const unknown = await postDecline(h, tokens[1]!, { why: 'x' });
      assert.equal(unknown.statusCode, 400);
      const crossSite = await h.app.inject({ method: 'POST', url: `/sign/${tokens[1]}/decline`, headers: { 'content-type': 'application/json' }, payload: '{}' });
      assert.equal(crossSite.statusCode, 400, 'without the page header');
      assert.equal((await getForm(h, as, form.id)).status, 'sent');

      assert.equal((await postSign(h, tokens[0]!, signatureOf(1))).statusCode, 200);
      const signedDecline = await postDecline(h, tokens[0]!, {});
      assert.equal(signedDecline.statusCode, 409);
      const ok = await postDecline(h, tokens[1]!, {});
      assert.equal(ok.statusCode, 200, ok.body);
      const after = await getForm(h, as, form.id);
      assert.deepEqual([after.status, after.recipients[1]!.status, after.recipients[1]!.decline_reason], ['declined', 'declined', null]);
      await h.deps.worker.runDue();
      const sealed = await h.deps.database.db.selectFrom('sealed_files').select('form_id').where('form_id', '=', form.id).execute();
      assert.equal(sealed.length, 0, 'a declined form is never sealed');
    });

    it('a sequential form: a recipient waiting for their turn cannot decline yet (409 not_your_turn)', async () => {
      const { form } = await createAndSend(h, h.actors.aTest, templateId, { signing_order: 'sequential', recipients: [{ email: 'fay@example.com', channel: 'email' }, { email: 'gil@example.com', channel: 'email' }] });
      const res = await postDecline(h, tokenOf(form.recipients[1]!.signing_url), {});
      assert.equal(res.statusCode, 409);
      assert.equal(JSON.parse(res.body).error.code, 'not_your_turn');
    });
  });
}
