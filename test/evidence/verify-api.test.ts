import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { loadSigningCertificate, sealPdf, makeSampleTemplatePdf, type Verification } from '../../src/pdf/index.js';
import { DIALECTS, errorOf, type Harness } from '../harness.js';
import { multipart } from '../shared/multipart.js';
import { harnessWithWorker } from '../shared/worker-harness.js';
import { appendTitleUpdate, flipSignedByte, manyObjectsPdf, sealedTwoSignerForm, type SealedForm } from './support.js';

// POST /api/v1/verify on what a verifier meets: our own sealed PDF, the same with one byte changed
// or an update appended, PDFs signed by others (Adobe's usage-rights signature on a real form, a
// seal by another certificate), an unsigned PDF, garbage, and a 100,000-object file.

const fixture = (name: string): Buffer => fs.readFileSync(path.join('test/fixtures/pdfs', name));

for (const dialect of DIALECTS) {
  describe(`POST /api/v1/verify (${dialect})`, () => {
    const harness = harnessWithWorker(dialect);
    let h: Harness;
    let sealed: SealedForm;
    before(async () => {
      h = harness();
      sealed = await sealedTwoSignerForm(h);
    });

    const verify = async (pdf: Buffer, as = h.actors.aTest) => {
      const res = await h.request({ method: 'POST', url: '/api/v1/verify', as, payload: pdf, headers: { 'content-type': 'application/pdf' } });
      return res;
    };
    const ok = async (pdf: Buffer): Promise<Verification> => {
      const res = await verify(pdf);
      assert.equal(res.status, 200, res.body);
      return res.json<Verification>();
    };

    it('our sealed PDF: issued by this service, intact, one valid seal over the whole document', async () => {
      const v = await ok(sealed.pdf);
      assert.equal(v.object, 'verification');
      assert.equal(v.issued_by_this_service, true);
      assert.equal(v.form_id, sealed.formId);
      assert.equal(v.intact, true);
      assert.equal(v.modified_after_signing, false);
      assert.equal(v.signatures.length, 1);
      const [seal] = v.signatures;
      assert.equal(seal!.kind, 'signature');
      assert.equal(seal!.field, 'Seal');
      assert.equal(seal!.valid, true);
      assert.equal(seal!.covers_whole_document, true);
      assert.match(seal!.signed_at ?? '', /^\d{4}-\d{2}-\d{2}T/);
      assert.deepEqual(seal!.certificate, { subject: 'CN=Formsign document signing, O=Formsign', issuer: 'CN=Formsign document signing, O=Formsign', self_signed: true, trusted_by_service: true });
      assert.equal(seal!.timestamp, undefined, 'no TSA configured: no timestamp');
      assert.deepEqual(v.ltv, { dss: false, ocsp: false, crl: false });
      assert.equal(seal!.modification_level, 'none', 'nothing follows the seal');
      assert.deepEqual(seal!.changes, []);
    });

    it('the same PDF as a multipart `file` part answers the same; a live key works too', async () => {
      const body = multipart([{ name: 'file', value: sealed.pdf, filename: 'signed.pdf' }]);
      const res = await h.request({ method: 'POST', url: '/api/v1/verify', as: h.actors.aLive, payload: body.payload, headers: body.headers });
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(res.json(), await ok(sealed.pdf));
      assert.ok(res.headers['x-ratelimit-limit'], 'the usual rate-limit headers');
    });

    it('one byte flipped inside the signed range → intact false, the seal invalid, not ours any more', async () => {
      const v = await ok(flipSignedByte(sealed.pdf));
      assert.equal(v.intact, false);
      assert.equal(v.signatures[0]!.valid, false);
      assert.equal(v.issued_by_this_service, false);
      assert.equal(v.form_id, undefined);
    });

    it('an incremental update rewriting /Info → reported as a metadata change (not content), the seal intact but no longer covering the file', async () => {
      const v = await ok(appendTitleUpdate(sealed.pdf));
      // /Info is metadata: reported in the seal's changes, not counted as a change of the document.
      assert.equal(v.modified_after_signing, false);
      assert.equal(v.intact, true);
      assert.equal(v.signatures[0]!.valid, true);
      assert.equal(v.signatures[0]!.covers_whole_document, false);
      assert.equal(v.signatures[0]!.modification_level, 'none');
      assert.deepEqual(v.signatures[0]!.changes.map((c) => c.kind), ['metadata']);
      // The form id is read from the revision the seal covers.
      assert.equal(v.form_id, sealed.formId);
    });

    it('a PDF signed elsewhere (Adobe usage rights on a real form): analysed, valid, not ours', async () => {
      const v = await ok(fixture('lima_oxygen_prescription_fr.pdf'));
      assert.equal(v.issued_by_this_service, false);
      assert.equal(v.intact, true);
      assert.equal(v.signatures.length, 1);
      const [s] = v.signatures;
      assert.equal(s!.field, 'Perms/UR3');
      assert.equal(s!.valid, true);
      assert.match(s!.certificate!.subject, /O=Adobe Systems Incorporated/);
      assert.equal(s!.certificate!.self_signed, false);
      assert.equal(s!.certificate!.trusted_by_service, false);
    });

    it('a PDF sealed with another certificate: valid, but neither trusted nor issued by this service', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-other-cert-'));
      try {
        const other = loadSigningCertificate({ dataDir: dir, serviceName: 'Elsewhere' });
        const sample = await makeSampleTemplatePdf();
        const filledSha256 = createHash('sha256').update(sample.pdf).digest('hex');
        const pdf = await sealPdf({
          document: sample.pdf, fields: sample.fields, marks: [], dates: {}, extraSigners: [], signingTime: new Date(),
          audit: { formId: sealed.formId, formName: 'Copy', documentId: 'x', templateSha256: null, filledSha256, recipients: [] },
        }, other);
        const v = await ok(Buffer.from(pdf));
        assert.equal(v.intact, true);
        assert.equal(v.signatures[0]!.valid, true);
        assert.equal(v.signatures[0]!.certificate!.subject, 'CN=Elsewhere document signing, O=Elsewhere');
        assert.equal(v.signatures[0]!.certificate!.trusted_by_service, false);
        assert.equal(v.issued_by_this_service, false, 'a form id alone does not make it ours');
        assert.equal(v.form_id, undefined);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('a PDF with no signature: no signatures, not intact', async () => {
      const v = await ok(fixture('osha_form_301_injury_report.pdf'));
      assert.deepEqual(v.signatures, []);
      assert.equal(v.intact, false);
      assert.equal(v.issued_by_this_service, false);
      assert.equal(v.modified_after_signing, false);
    });

    it('garbage → 400 pdf_invalid in the contract shape; an empty body → 400 parameter_missing; no key → 401', async () => {
      const res = await verify(Buffer.from('this is not a PDF at all'));
      assert.equal(res.status, 400);
      assert.equal(errorOf(res).type, 'invalid_request_error');
      assert.equal(errorOf(res).code, 'pdf_invalid');
      assert.match(errorOf(res).message, /not a PDF/);
      const truncated = await verify(Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog'));
      assert.equal(truncated.status, 400);
      assert.equal(errorOf(truncated).code, 'pdf_invalid');
      const empty = await h.request({ method: 'POST', url: '/api/v1/verify', as: h.actors.aTest, headers: { 'content-type': 'application/pdf' } });
      assert.equal(empty.status, 400);
      assert.equal(errorOf(empty).code, 'parameter_missing');
      const json = await h.request({ method: 'POST', url: '/api/v1/verify', as: h.actors.aTest, json: { file: 'x' } });
      assert.equal(json.status, 415);
      const anon = await h.request({ method: 'POST', url: '/api/v1/verify', payload: sealed.pdf, headers: { 'content-type': 'application/pdf' } });
      assert.equal(anon.status, 401);
    });

    it('a 100,000-object PDF is answered through the pool in bounded time', async () => {
      const started = performance.now();
      const res = await verify(manyObjectsPdf(100_000));
      const seconds = (performance.now() - started) / 1000;
      // Either analysed (no signatures) or refused as too costly: never a hang, never a 500.
      assert.ok(res.status === 200 || (res.status === 422 && errorOf(res).code === 'pdf_too_complex') || (res.status === 400 && errorOf(res).code === 'pdf_invalid'), res.body);
      if (res.status === 200) assert.deepEqual(res.json<Verification>().signatures, []);
      assert.ok(seconds < 60, `answered in ${seconds.toFixed(1)} s`);
    });
  });
}
