import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { DIALECTS, type Harness } from '../harness.js';
import { harnessWithWorker } from '../shared/worker-harness.js';
import { SIGN_HEADERS, sendTo, strokePng, twoSignerTemplate } from '../signing/support.js';
import { pdfsigAndText as pdfsig } from '../shared/pdf-tools.js';

// The product's flow end to end through the real worker: template → form → send → both recipients
// sign on their links → the seal job → GET signed-pdf → a PDF that pdfsig verifies, with the values
// and the audit trail in it. form.signed exists exactly once, and only once the file does.

for (const dialect of DIALECTS) {
  describe(`send → sign → seal → signed PDF (${dialect})`, () => {
    const harness = harnessWithWorker(dialect);
    let h: Harness;
    before(() => {
      h = harness();
    });

    const sign = (token: string, values: Record<string, unknown>) =>
      h.app.inject({ method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json', 'user-agent': 'FlowTest/1.0' }, payload: JSON.stringify({ values, consent: true }) });

    it('two signers sign; the worker seals; the signed PDF verifies and carries the values and the audit trail', async () => {
      const as = h.actors.aTest;
      const templateId = await twoSignerTemplate(h, as.partition);
      const f = await sendTo(h, as, templateId, ['tenant@example.com', 'landlord@example.com']);
      const first = await sign(f.tokens[0]!, { tenant_name: 'Ada Lovelace', tenant_signature: { image: strokePng(), method: 'drawn' } });
      assert.equal(first.statusCode, 200, first.body);
      const early = await h.request({ url: `/api/v1/forms/${f.formId}/signed-pdf?format=base64`, as });
      assert.equal(early.status, 409, 'not signed while a recipient has not signed');
      const notYet = await h.app.inject({ url: `/sign/${f.tokens[0]}/signed.pdf` });
      assert.equal(notYet.statusCode, 409, 'no copy before it is sealed');
      const second = await sign(f.tokens[1]!, { landlord_name: 'Charles Babbage', landlord_signature: { image: strokePng(), method: 'typed' } });
      assert.equal(second.statusCode, 200, second.body);

      // The worker picks the seal job up after the commit and records form.signed only with the file.
      const deadline = Date.now() + 60_000;
      let form: { status: string; completed_at: string | null } = { status: '', completed_at: null };
      while (Date.now() < deadline) {
        form = (await h.request({ url: `/api/v1/forms/${f.formId}`, as })).json();
        if (form.status === 'signed') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(form.status, 'signed', 'sealed within a minute');
      assert.ok(form.completed_at);
      const events = (await h.request({ url: `/api/v1/forms/${f.formId}/events?limit=100`, as })).json<{ data: Array<{ type: string }> }>().data.map((e) => e.type);
      assert.deepEqual(events.filter((t) => t === 'form.signed'), ['form.signed']);
      assert.deepEqual(events.filter((t) => t === 'form.viewed').length, 2);

      const res = await h.request({ url: `/api/v1/forms/${f.formId}/signed-pdf?format=base64`, as });
      assert.equal(res.status, 200, res.body);
      const body = res.json<{ data: string; sha256: string; size: number }>();
      const pdf = Buffer.from(body.data, 'base64');
      assert.equal(createHash('sha256').update(pdf).digest('hex'), body.sha256);
      const out = pdfsig(pdf);
      assert.match(out, /Signature is Valid\./);
      assert.match(out, /Total document signed/);
      assert.match(out, /ETSI\.CAdES\.detached/);
      assert.match(out, /Ada Lovelace/);
      assert.match(out, /Charles Babbage/);
      assert.match(out, new RegExp(f.formId));
      assert.match(out, /tenant@example\.com/);
      assert.match(out, /FlowTest\/1\.0/);

      // The presigned address serves the same bytes without a key.
      const redirect = await h.request({ url: `/api/v1/forms/${f.formId}/signed-pdf`, as });
      assert.equal(redirect.status, 302);
      const file = await h.request({ url: String(redirect.headers['location']).replace('http://localhost:3000', '') });
      assert.ok(file.rawPayload.equals(pdf));
      // Each signer downloads the same copy from their own link.
      for (const token of f.tokens) {
        const copy = await h.app.inject({ url: `/sign/${token}/signed.pdf` });
        assert.equal(copy.statusCode, 200);
        assert.equal(copy.headers['content-disposition'], `attachment; filename="${f.formId}-signed.pdf"`);
        assert.ok(copy.rawPayload.equals(pdf));
      }
    });
  });
}
