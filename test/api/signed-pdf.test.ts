import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { recordSealedForm } from '../../src/domain/signing/record-sealed-form.js';
import { makeSampleTemplatePdf } from '../../src/pdf/index.js';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';

// GET /api/v1/forms/{id}/signed-pdf (format=url|base64) and the presigned GET /api/v1/files/pdf/{token}
// (CONTRACT.md Part A and "Signed PDF"). The sealed file is recorded the way the seal job records it.

const NOW = new Date('2026-05-01T12:00:00.000Z');

for (const dialect of DIALECTS) {
  describe(`signed PDF retrieval (${dialect})`, () => {
    let h: Harness;
    let now = NOW;
    let pdf: Uint8Array;
    let templateId: string;
    const logLines: string[] = [];
    before(async () => {
      h = await createHarness(dialect, { clock: { now: () => now }, env: { BASE_URL: 'https://forms.example.com' }, logStream: { write: (line: string) => void logLines.push(line) } });
      templateId = await seedTemplate(h, h.actors.aTest.partition, 'Lease', '2026-01-01T00:00:00.000Z');
      pdf = (await makeSampleTemplatePdf()).pdf;
    });
    after(() => h.close());

    const recipientIds = new Map<string, string[]>();
    const newSentForm = async (): Promise<string> => {
      const form = (await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } })).json<{ id: string }>();
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as: h.actors.aTest, json: { recipients: [{ channel: 'email', email: 'a@example.com', name: 'A' }] } });
      assert.equal(sent.status, 200, sent.body);
      recipientIds.set(form.id, sent.json<{ recipients: Array<{ id: string }> }>().recipients.map((r) => r.id));
      return form.id;
    };
    /** As the seal job records it, once every recipient has signed. */
    const seal = async (formId: string, bytes = pdf) => {
      await h.deps.database.db.updateTable('recipients').set({ status: 'signed', signed_at: NOW.toISOString() }).where('form_id', '=', formId).execute();
      return recordSealedForm(h.deps.domain, h.actors.aTest.partition, formId, bytes, recipientIds.get(formId)!);
    };
    const signedPdf = (formId: string, format?: string, as = h.actors.aTest) =>
      h.request({ url: `/api/v1/forms/${formId}/signed-pdf${format ? `?format=${format}` : ''}`, as });

    it('before the form is signed: 409 form_not_signed, in both formats', async () => {
      const formId = await newSentForm();
      for (const format of [undefined, 'url', 'base64']) {
        const res = await signedPdf(formId, format);
        assert.equal(res.status, 409);
        assert.deepEqual([errorOf(res).code, errorOf(res).type], ['form_not_signed', 'conflict_error']);
      }
    });

    it('once sealed: the form is signed with one form.signed; url redirects to a presigned address that serves the file without a key for an hour', async () => {
      const formId = await newSentForm();
      assert.equal(await seal(formId), true);
      const other = new Uint8Array([...pdf.subarray(0, -1), 10]);
      assert.equal(await seal(formId, other), false, 'a second seal changes nothing, not even the stored file');
      const form = (await h.request({ url: `/api/v1/forms/${formId}`, as: h.actors.aTest })).json<{ status: string; completed_at: string }>();
      assert.deepEqual([form.status, form.completed_at], ['signed', NOW.toISOString()]);
      const events = (await h.request({ url: `/api/v1/forms/${formId}/events`, as: h.actors.aTest })).json<{ data: Array<{ type: string }> }>().data;
      assert.equal(events.filter((e) => e.type === 'form.signed').length, 1);

      const res = await signedPdf(formId);
      assert.equal(res.status, 302);
      const location = String(res.headers['location']);
      const prefix = 'https://forms.example.com/api/v1/files/pdf/';
      assert.ok(location.startsWith(prefix), location);
      const path = location.slice('https://forms.example.com'.length);
      const file = await h.request({ url: path });
      assert.equal(file.status, 200, file.body);
      assert.equal(file.headers['content-type'], 'application/pdf');
      assert.equal(file.headers['content-disposition'], `attachment; filename="${formId}-signed.pdf"`);
      assert.ok(file.rawPayload.equals(Buffer.from(pdf)));
      assert.match(String(file.headers['service-request-id']), /^req_[0-9a-f]{32}$/);
      // The address is a credential: the access log names the route, never the token.
      const token0 = location.slice(prefix.length);
      assert.ok(logLines.some((l) => l.includes('"route":"/api/v1/files/pdf/:token"')), 'the download is logged by its route template');
      assert.ok(!logLines.some((l) => l.includes(token0)), 'no log line holds the token');

      // Tampered: another byte in the claim or the MAC → not found, never the file.
      const token = location.slice(prefix.length);
      assert.ok(token.length <= 100, `${token.length} characters`);
      const [body, mac] = token.split('.') as [string, string];
      const otherForm = `${'0'.repeat(24)}${body.slice(24)}`;
      const later = `${body.slice(0, 49)}${'z'.repeat(body.length - 49)}`;
      for (const bad of [`${otherForm}.${mac}`, `${later}.${mac}`, `${body}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`, `${body}`, 'x', `${body}.${mac}x`]) {
        const r = await h.request({ url: `/api/v1/files/pdf/${bad}` });
        assert.equal(r.status, 404, bad);
        assert.equal(errorOf(r).code, 'resource_not_found');
      }
      // An hour later the same address has expired.
      now = new Date(NOW.getTime() + 3600_000);
      try {
        const late = await h.request({ url: path });
        assert.equal(late.status, 410);
        assert.deepEqual([errorOf(late).code, errorOf(late).type], ['link_expired', 'invalid_request_error']);
      } finally {
        now = NOW;
      }
    });

    it('base64: the contract wrapper, decoding to the same bytes and SHA-256', async () => {
      const formId = await newSentForm();
      await seal(formId);
      const res = await signedPdf(formId, 'base64');
      assert.equal(res.status, 200, res.body);
      const body = res.json<{ object: string; form_id: string; filename: string; content_type: string; size: number; sha256: string; data: string }>();
      const bytes = Buffer.from(body.data, 'base64');
      assert.ok(bytes.equals(Buffer.from(pdf)));
      assert.deepEqual({ ...body, data: undefined }, {
        object: 'signed_pdf', form_id: formId, filename: `${formId}-signed.pdf`, content_type: 'application/pdf',
        size: pdf.byteLength, sha256: createHash('sha256').update(pdf).digest('hex'), data: undefined,
      });
    });

    it('a seal is not recorded when a recipient was added meanwhile, or when the form expired', async () => {
      const formId = await newSentForm();
      await h.deps.database.db.updateTable('recipients').set({ status: 'signed' }).where('form_id', '=', formId).execute();
      const sealedIds = recipientIds.get(formId)!;
      // A late recipient: the seal that was made without them is obsolete.
      assert.equal((await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as: h.actors.aTest, json: { recipients: [{ channel: 'email', email: 'late@example.com', name: 'Late' }] } })).status, 200);
      assert.equal(await recordSealedForm(h.deps.domain, h.actors.aTest.partition, formId, pdf, sealedIds), false);
      const form = (await h.request({ url: `/api/v1/forms/${formId}`, as: h.actors.aTest })).json<{ status: string; recipients: Array<{ status: string }> }>();
      assert.notEqual(form.status, 'signed');
      // An expired form stays expired.
      const other = await newSentForm();
      await h.deps.database.db.updateTable('recipients').set({ status: 'signed' }).where('form_id', '=', other).execute();
      await h.deps.database.db.updateTable('forms').set({ status: 'expired' }).where('id', '=', other).execute();
      assert.equal(await recordSealedForm(h.deps.domain, h.actors.aTest.partition, other, pdf, recipientIds.get(other)!), false);
      const events = (await h.request({ url: `/api/v1/forms/${other}/events`, as: h.actors.aTest })).json<{ data: Array<{ type: string }> }>().data;
      assert.ok(!events.some((e) => e.type === 'form.signed'));
    });

    it("another partition's signed form is not found; a bad format is refused", async () => {
      const formId = await newSentForm();
      await seal(formId);
      for (const as of [h.actors.aLive, h.actors.bTest]) {
        const res = await signedPdf(formId, 'base64', as);
        assert.deepEqual([res.status, errorOf(res).code], [404, 'resource_not_found']);
      }
      const bad = await signedPdf(formId, 'zip');
      assert.deepEqual([bad.status, errorOf(bad).param], [400, 'format']);
    });
  });
}
