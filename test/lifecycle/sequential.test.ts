import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { FakeClock, startSmtpSink } from '../outbox/support/sending.js';
import { pdfsigAndText } from '../shared/pdf-tools.js';
import { twoSignerTemplate } from '../signing/support.js';
import { createAndSend, eventTypes, getForm, openLink, pageText, postSign, signatureOf, tokenOf, untilSigned } from './support.js';

// Sequential signing order (issue #23 item 1) with three signers (the third on an added signature
// page): one message per turn, in order, over real SMTP; a later link refuses before its turn and
// works after; the sealed PDF's audit trail lists the three in order.

const T0 = '2026-05-04T10:00:00.000Z';
const NAMES = ['Ann First', 'Ben Second', 'Cat Third'];
const EMAILS = ['ann@example.com', 'ben@example.com', 'cat@example.com'];

for (const dialect of DIALECTS) {
  describe(`sequential signing order (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    let templateId: string;

    before(async () => {
      sink = await startSmtpSink();
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, { clock, env: { SMTP_URL: sink.url, BASE_URL: 'https://sign.acme.test' } });
      templateId = await twoSignerTemplate(h, h.actors.aTest.partition);
    });
    after(async () => {
      await h.close();
      await sink.close();
    });

    it('three signers: one message per turn in order, the next link refuses before its turn and works after, the audit lists them in order', async () => {
      const as = h.actors.aTest;
      const { form } = await createAndSend(h, as, templateId, { signing_order: 'sequential', recipients: EMAILS.map((email, i) => ({ email, channel: 'email', name: NAMES[i] })) });
      assert.equal(form.signing_order, 'sequential');
      assert.deepEqual(form.recipients.map((r) => r.status), ['sent', 'waiting', 'waiting']);
      const tokens = form.recipients.map((r) => tokenOf(r.signing_url));
      // The invitations (after the seal, each signer also gets their signed copy: messages' part).
      const invitations = () => sink.received.filter((m) => / asks you to sign /.test(m.parsed.subject ?? ''));
      const inbox = () => invitations().map((m) => m.envelopeTo.join());

      await h.deps.worker.runDue();
      assert.deepEqual(inbox(), [EMAILS[0]], 'only the first signer is messaged');

      // The second link before its turn: a page on GET, 409 not_your_turn on the paths the page posts to.
      const early = await openLink(h, tokens[1]!);
      assert.equal(early.statusCode, 409);
      assert.match(pageText(early.body), /You will get a message when it is your turn/);
      const earlySign = await postSign(h, tokens[1]!, signatureOf(2));
      assert.equal(earlySign.statusCode, 409);
      assert.equal((JSON.parse(earlySign.body) as { error: { code: string } }).error.code, 'not_your_turn');
      const earlyPdf = await h.app.inject({ url: `/sign/${tokens[1]}/document.pdf` });
      assert.equal(earlyPdf.statusCode, 409);
      assert.equal((await getForm(h, as, form.id)).recipients[1]!.status, 'waiting', 'a refused open is not a view');

      for (const [i, slot] of [[0, 1], [1, 2], [2, 3]] as const) {
        clock.advance(3_600_000);
        assert.equal((await openLink(h, tokens[i]!)).statusCode, 200, `link ${i + 1} works on its turn`);
        const signed = await postSign(h, tokens[i]!, signatureOf(slot));
        assert.equal(signed.statusCode, 200, signed.body);
        await h.deps.worker.runDue();
        assert.deepEqual(inbox(), EMAILS.slice(0, Math.min(i + 2, 3)), `after signer ${i + 1}: exactly one message per turn, in order`);
        const now = await getForm(h, as, form.id);
        if (i < 2) {
          assert.equal(now.recipients[i + 1]!.status, 'sent');
          assert.equal(now.recipients[i + 1]!.sent_at, clock.now().toISOString(), 'sent_at is when its turn came');
        }
        if (i === 0) assert.equal(now.recipients[2]!.status, 'waiting');
      }
      const invites = invitations().map((m) => [m.envelopeTo.join(), m.parsed.subject]);
      assert.deepEqual(invites, EMAILS.map((e) => [e, 'Account A asks you to sign "Residential lease"']));

      const done = await untilSigned(h, as, form.id, clock);
      assert.equal(done.status, 'signed', 'sealed');
      const types = await eventTypes(h, as, form.id);
      assert.deepEqual(types.filter((t) => t === 'form.sent' || t === 'form.signed'), ['form.sent', 'form.signed']);

      const res = await h.request({ url: `/api/v1/forms/${form.id}/signed-pdf?format=base64`, as });
      assert.equal(res.status, 200, res.body);
      const out = pdfsigAndText(Buffer.from(res.json<{ data: string }>().data, 'base64'));
      const audit = out.slice(out.indexOf('Signature record for'));
      const at = NAMES.map((n) => audit.indexOf(n));
      assert.ok(at.every((x) => x > 0), `all three on the audit page: ${at}`);
      assert.deepEqual([...at].sort((a, b) => a - b), at, 'listed in signing order');
    });

    it('the order is fixed by the first send; a later recipient of a sequential form waits its turn', async () => {
      const as = h.actors.aTest;
      const { form } = await createAndSend(h, as, templateId, { signing_order: 'sequential', recipients: [{ email: 'dee@example.com', channel: 'email' }] });
      const change = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as, json: { signing_order: 'parallel', recipients: [{ email: 'eve@example.com', channel: 'email' }] } });
      assert.deepEqual([change.status, errorOf(change).code, errorOf(change).param], [400, 'parameter_invalid', 'signing_order']);
      const later = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as, json: { recipients: [{ email: 'eve@example.com', channel: 'email' }] } });
      assert.equal(later.status, 200, later.body);
      assert.deepEqual(later.json<{ recipients: Array<{ status: string }> }>().recipients.map((r) => r.status), ['sent', 'waiting']);
      const parallel = await createAndSend(h, as, templateId, { recipients: [{ email: 'fay@example.com', channel: 'email' }, { email: 'gil@example.com', channel: 'email' }] });
      assert.equal(parallel.form.signing_order, 'parallel');
      assert.deepEqual(parallel.form.recipients.map((r) => r.status), ['sent', 'sent']);
    });
  });
}
