import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeSampleTemplatePdf, type Verification } from '../../src/pdf/index.js';
import { sealPdfWithEvidence } from '../../src/pdf/seal/index.js';
import { createHarness, DIALECTS, type Harness } from '../harness.js';
import { makeTestTsaCa, startTsa, type LoopbackTsa, type TestTsaCa } from '../shared/tsa.js';
import { flipSignedByte, formsignCli as cli } from './support.js';

// The verifier on our OWN B-LTA output (issue 25): a seal made with the loopback TSA of
// test/shared/tsa.ts, so its CMS carries a signature timestamp, a DSS follows in an incremental
// update and a document timestamp closes the file. POST /api/v1/verify and `formsign verify` must
// report the seal's timestamp, the LTV data and the document timestamp as such; a copy with one
// byte changed inside the sealed range is not intact.

const FORM_ID = 'form_BltaVerifyTest0000000001';

async function sealBlta(h: Harness, tsa: LoopbackTsa): Promise<Buffer> {
  const sample = await makeSampleTemplatePdf();
  const result = await sealPdfWithEvidence({
    document: sample.pdf, fields: sample.fields, marks: [], dates: {}, extraSigners: [], signingTime: new Date(),
    audit: {
      formId: FORM_ID, formName: 'B-LTA sample', documentId: `${FORM_ID}-signed`, templateSha256: null,
      filledSha256: createHash('sha256').update(sample.pdf).digest('hex'), recipients: [],
    },
  }, h.deps.domain.signingCertificate, { urls: [tsa.url], timeoutMs: 4000 });
  // Everything B-LTA has but revocation data: the test TSA's certificate names no responder (B-T).
  assert.equal(result.level, 'B-T');
  return Buffer.from(result.pdf);
}

/** What a verifier must say of our B-LTA file, whoever asks (the API or the CLI). */
function assertBlta(v: Verification, started: number): void {
  assert.equal(v.object, 'verification');
  assert.equal(v.issued_by_this_service, true);
  assert.equal(v.form_id, FORM_ID);
  assert.equal(v.intact, true);
  // The DSS and the document timestamp after the seal are validation data, not a change.
  assert.equal(v.modified_after_signing, false);
  assert.deepEqual(v.ltv, { dss: true, ocsp: false, crl: false }, 'a DSS with the chains; the self-signed seal names no OCSP or CRL');
  assert.equal(v.signatures.length, 2, JSON.stringify(v.signatures));
  const seal = v.signatures.find((s) => s.kind === 'signature');
  const stamp = v.signatures.find((s) => s.kind === 'document_timestamp');
  assert.ok(seal && stamp, 'one seal and one document timestamp');
  assert.equal(seal.field, 'Seal');
  assert.equal(seal.valid, true);
  // The seal covers its revision; the DSS and the document timestamp follow it.
  assert.equal(seal.covers_whole_document, false);
  assert.equal(seal.certificate?.trusted_by_service, true);
  assert.ok(seal.timestamp, 'the signature timestamp (PAdES B-T) is reported');
  assert.equal(seal.timestamp.valid, true);
  assert.match(seal.timestamp.tsa, /Formsign Test TSA/);
  const stampedAt = Date.parse(seal.timestamp.time);
  assert.ok(stampedAt >= started - 60_000 && stampedAt <= Date.now() + 60_000, `the TSA's time ${seal.timestamp.time} is now`);
  assert.equal(stamp.field, 'DocumentTimestamp');
  assert.equal(stamp.valid, true);
  assert.equal(stamp.covers_whole_document, true);
  assert.match(stamp.certificate?.subject ?? '', /Formsign Test TSA/);
  assert.equal(stamp.timestamp?.valid, true);
  assert.match(stamp.timestamp?.tsa ?? '', /Formsign Test TSA/);
  assert.ok(Date.parse(stamp.timestamp?.time ?? '') >= stampedAt, 'the document timestamp is not older than the signature timestamp');
  // Difference analysis: after the seal only validation data and the document timestamp; nothing after the stamp.
  assert.equal(seal.modification_level, 'ltv_updates', JSON.stringify(seal.changes));
  assert.deepEqual([...new Set(seal.changes.map((c) => c.kind))].sort(), ['document_timestamp', 'validation_data']);
  assert.equal(stamp.modification_level, 'none');
  assert.deepEqual(stamp.changes, []);
}

let ca: TestTsaCa;
let tsa: LoopbackTsa;
before(async () => {
  ca = makeTestTsaCa();
  tsa = await startTsa(ca);
});
after(async () => {
  await tsa.close();
  ca.remove();
});

for (const dialect of DIALECTS) {
  describe(`the verifier on our own B-LTA seal (${dialect})`, () => {
    let h: Harness;
    let pdf: Buffer;
    let started: number;
    before(async () => {
      h = await createHarness(dialect);
      started = Date.now();
      pdf = await sealBlta(h, tsa);
    });
    after(() => h.close());

    const verify = async (body: Buffer): Promise<Verification> => {
      const res = await h.request({ method: 'POST', url: '/api/v1/verify', as: h.actors.aTest, payload: body, headers: { 'content-type': 'application/pdf' } });
      assert.equal(res.status, 200, res.body);
      return res.json<Verification>();
    };

    it('POST /api/v1/verify: the seal valid with its timestamp, the DSS, the document timestamp over the whole file', async () => {
      assertBlta(await verify(pdf), started);
    });

    it('POST /api/v1/verify: one byte changed inside the sealed range → intact false, the seal not valid', async () => {
      const v = await verify(flipSignedByte(pdf));
      assert.equal(v.intact, false);
      assert.equal(v.signatures.find((s) => s.kind === 'signature')?.valid, false);
    });

    if (dialect === 'sqlite') {
      it('formsign verify --json (offline, the same DATA_DIR): the same answer; the changed copy exits 3', async () => {
        const file = path.join(h.dataDir, 'blta.pdf');
        const changed = path.join(h.dataDir, 'blta-changed.pdf');
        fs.writeFileSync(file, pdf);
        fs.writeFileSync(changed, flipSignedByte(pdf));
        const good = await cli(['verify', file, '--json'], h.dataDir);
        assert.equal(good.code, 0, good.err);
        assertBlta(JSON.parse(good.out) as Verification, started);
        const bad = await cli(['verify', changed, '--json'], h.dataDir);
        assert.equal(bad.code, 3, bad.err);
        assert.equal((JSON.parse(bad.out) as Verification).intact, false);
      });
    }
  });
}
