import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DIALECTS, type Harness } from '../harness.js';
import { harnessWithWorker } from '../shared/worker-harness.js';
import { SIGN_HEADERS, strokePng } from '../signing/support.js';
import { pdfsigAndText } from '../shared/pdf-tools.js';

// A generated form is sent, signed and sealed like a template's: two signer slots from "buyer and
// seller sign", each recipient fills their own fields and signs, the worker seals, and the signed PDF
// verifies with both parties' values in it.

for (const dialect of DIALECTS) {
  describe(`generated form: send → sign → seal (${dialect})`, () => {
    const harness = harnessWithWorker(dialect);
    let h: Harness;
    before(() => {
      h = harness();
    });

    const sign = (token: string, values: Record<string, unknown>) =>
      h.app.inject({ method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ values, consent: true }) });

    it('two signers from the description sign their own fields and the sealed PDF verifies', async () => {
      const as = h.actors.aTest;
      const created = await h.request({
        method: 'POST', url: '/api/v1/forms/generate', as,
        json: { prompt: 'Vehicle bill of sale between buyer and seller: vehicle make, sale price, buyer name, seller name, I confirm the vehicle is sold as is. Buyer and seller sign and date.', prefill: { vehicle_make: 'Morris Minor', sale_price: 1850 } },
      });
      assert.equal(created.status, 201, created.body);
      const form = created.json<{ id: string; name: string; fields: Array<{ name: string; type: string; signer: number }> }>();
      assert.equal(form.name, 'Vehicle bill of sale');
      const slots = Object.fromEntries(form.fields.map((f) => [f.name, f.signer]));
      assert.equal(slots['buyer_signature'], 1);
      assert.equal(slots['seller_signature'], 2);
      assert.equal(slots['seller_name'], 2, 'a field named after the seller is the seller\'s to fill');

      const sent = await h.request({
        method: 'POST', url: `/api/v1/forms/${form.id}/send`, as,
        json: { recipients: [{ email: 'buyer@example.com', channel: 'email', name: 'Ada Buyer', signer: 1 }, { email: 'seller@example.com', channel: 'email', name: 'Charles Seller', signer: 2 }] },
      });
      assert.equal(sent.status, 200, sent.body);
      const tokens = sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients.map((r) => /\/sign\/([A-Za-z0-9_-]{43})$/.exec(r.signing_url)![1]!);

      const first = await sign(tokens[0]!, { buyer_name: 'Ada Buyer', confirm_vehicle_sold_as: true, buyer_signature: { image: strokePng(), method: 'drawn' } });
      assert.equal(first.statusCode, 200, first.body);
      const second = await sign(tokens[1]!, { seller_name: 'Charles Seller', seller_signature: { image: strokePng(), method: 'typed' } });
      assert.equal(second.statusCode, 200, second.body);

      const deadline = Date.now() + 60_000;
      let status = '';
      while (Date.now() < deadline) {
        status = (await h.request({ url: `/api/v1/forms/${form.id}`, as })).json<{ status: string }>().status;
        if (status === 'signed') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(status, 'signed', 'sealed within a minute');
      const res = await h.request({ url: `/api/v1/forms/${form.id}/signed-pdf?format=base64`, as });
      assert.equal(res.status, 200, res.body);
      const out = pdfsigAndText(Buffer.from(res.json<{ data: string }>().data, 'base64'));
      assert.match(out, /Signature is Valid\./);
      assert.match(out, /Vehicle bill of sale/);
      assert.match(out, /Morris Minor/);
      assert.match(out, /Ada Buyer/);
      assert.match(out, /Charles Seller/);
    });
  });
}
