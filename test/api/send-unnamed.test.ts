import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DIALECTS, errorOf, type Harness } from '../harness.js';
import { harnessWithWorker } from '../shared/worker-harness.js';
import { pdfsigAndText } from '../shared/pdf-tools.js';
import { SIGN_HEADERS, strokePng, twoSignerTemplate } from '../signing/support.js';

// A recipient's `name` is optional (CONTRACT.md Part A/D). Without one, the API shows `null`, the
// e-mail greets without a name, and wherever a person reads who signs — the signing page, the audit
// trail and the added signature page of the sealed PDF — the address the link went to stands in.

interface Recipient { id: string; name: string | null; email: string | null; phone: string | null; channel: string; signer: number; signing_url: string }
interface Form { id: string; status: string; recipients: Recipient[] }

const EMAIL = 'tenant.unnamed@example.com';
const PHONE = '+14155550123';
const WITNESS = 'witness.unnamed@example.com';

const count = (text: string, s: string) => text.split(s).length - 1;

for (const dialect of DIALECTS) {
  describe(`send without a name (${dialect})`, () => {
    const harness = harnessWithWorker(dialect);
    let h: Harness;
    before(() => {
      h = harness();
    });

    const tokenOf = (r: Recipient) => {
      const token = /\/sign\/([A-Za-z0-9_-]{43})$/.exec(r.signing_url)?.[1];
      assert.ok(token, r.signing_url);
      return token;
    };
    const sign = (token: string, values: Record<string, unknown>) =>
      h.app.inject({ method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ values, consent: true }) });

    it('e-mail and sms recipients without a name: null in the API and events, greeting without a name, the address on the page and in the sealed PDF', async () => {
      const as = h.actors.aTest;
      const templateId = await twoSignerTemplate(h, as.partition);
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } });
      assert.equal(created.status, 201, created.body);
      const formId = created.json<{ id: string }>().id;
      const res = await h.request({
        method: 'POST', url: `/api/v1/forms/${formId}/send`, as,
        json: { recipients: [{ channel: 'email', email: EMAIL }, { channel: 'sms', phone: PHONE }, { channel: 'email', email: WITNESS }] },
      });
      assert.equal(res.status, 200, res.body);
      const sent = res.json<Form>();
      assert.equal(sent.status, 'sent');
      assert.deepEqual(
        sent.recipients.map((r) => [r.name, r.channel, r.email, r.phone, r.signer]),
        [[null, 'email', EMAIL, null, 1], [null, 'sms', null, PHONE, 2], [null, 'email', WITNESS, null, 3]],
      );
      assert.ok(sent.recipients.every((r) => 'name' in r), 'name is present, as null');

      // The stored row and the form.sent event (the webhook body) say the same.
      const rows = await h.deps.database.db.selectFrom('recipients').select(['id', 'name']).where('form_id', '=', formId).orderBy('position').execute();
      assert.deepEqual(rows.map((r) => r.name), [null, null, null]);
      const events = (await h.request({ url: `/api/v1/forms/${formId}/events?limit=100`, as })).json<{ data: Array<{ type: string; data: { object: Form } }> }>().data;
      const sentEvent = events.find((e) => e.type === 'form.sent');
      assert.ok(sentEvent);
      assert.deepEqual(sentEvent.data.object.recipients.map((r) => r.name), [null, null, null]);

      // The messages as composed and stored: no name, no "null", no "undefined".
      const messages = await h.deps.database.db.selectFrom('messages').select(['recipient_id', 'channel', 'to_address', 'subject', 'text', 'html']).where('form_id', '=', formId).execute();
      const byRecipient = new Map(messages.map((m) => [m.recipient_id, m]));
      const mail = byRecipient.get(sent.recipients[0]!.id)!;
      assert.equal(mail.to_address, EMAIL);
      assert.match(mail.text, /^Hello,\n\n/);
      assert.match(mail.html!, /font-size:15px;line-height:1\.5">Hello,<\/td>/);
      const sms = byRecipient.get(sent.recipients[1]!.id)!;
      assert.equal(sms.channel, 'sms');
      assert.equal(sms.to_address, PHONE);
      assert.match(sms.text, new RegExp(`asks you to sign "Residential lease": ${sent.recipients[1]!.signing_url.replace(/[.?]/g, '\\$&')}$`));
      for (const m of messages) assert.doesNotMatch(`${m.subject ?? ''}${m.text}${m.html ?? ''}`, /\bnull\b|\bundefined\b/);

      // The signing page names the recipient by the address the link went to.
      const tokens = sent.recipients.map(tokenOf);
      const pages = await Promise.all(tokens.map((t) => h.app.inject({ url: `/sign/${t}` })));
      // The name (here the address) in its own direction inside the sentence (issue 43: <bdi>).
      assert.match(pages[0]!.body, new RegExp(`asks <strong><bdi>${EMAIL.replace(/\./g, '\\.')}</bdi></strong> to review and sign`));
      assert.match(pages[1]!.body, /asks <strong><bdi>\+14155550123<\/bdi><\/strong> to review and sign/);
      assert.match(pages[2]!.body, new RegExp(`asks <strong><bdi>${WITNESS.replace(/\./g, '\\.')}</bdi></strong> to review and sign`));

      const signed = [
        await sign(tokens[0]!, { tenant_name: 'Ada Lovelace', tenant_signature: { image: strokePng(), method: 'drawn' } }),
        await sign(tokens[1]!, { landlord_name: 'Charles Babbage', landlord_signature: { image: strokePng(), method: 'drawn' } }),
        await sign(tokens[2]!, { _signature: { image: strokePng(), method: 'typed' } }),
      ];
      for (const s of signed) assert.equal(s.statusCode, 200, s.body);

      const deadline = Date.now() + 60_000;
      let status = '';
      while (Date.now() < deadline) {
        status = (await h.request({ url: `/api/v1/forms/${formId}`, as })).json<Form>().status;
        if (status === 'signed') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(status, 'signed', 'sealed within a minute');
      const file = await h.request({ url: `/api/v1/forms/${formId}/signed-pdf?format=base64`, as });
      assert.equal(file.status, 200, file.body);
      const out = pdfsigAndText(Buffer.from(file.json<{ data: string }>().data, 'base64'));
      assert.match(out, /Signature is Valid\./);
      const text = out.split('\n---\n')[1]!;
      // Each address three times on the audit trail (the recipient's band, the "delivered to" row and
      // the authentication used); the witness's a fourth time under their signature on the added page.
      assert.equal(count(text, EMAIL), 3, text);
      assert.equal(count(text, PHONE), 3, text);
      assert.equal(count(text, WITNESS), 4, text);
      assert.doesNotMatch(text, /no name given/);
    });

    it('a name, when given, must not be blank', async () => {
      const as = h.actors.aTest;
      const templateId = await twoSignerTemplate(h, as.partition);
      const formId = (await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } })).json<{ id: string }>().id;
      const res = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients: [{ channel: 'sms', phone: PHONE }, { channel: 'email', email: EMAIL, name: '   ' }] } });
      assert.equal(res.status, 400, res.body);
      assert.deepEqual({ ...errorOf(res), request_id: undefined, message: undefined }, { type: 'invalid_request_error', code: 'parameter_invalid', param: 'recipients[1].name', request_id: undefined, message: undefined });
      const rows = await h.deps.database.db.selectFrom('recipients').select('id').where('form_id', '=', formId).execute();
      assert.equal(rows.length, 0, 'nothing was sent');
    });
  });
}
