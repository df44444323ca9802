// PAdES B-T and B-LTA seals against loopback RFC 3161 TSAs (test/shared/tsa.ts), judged by
// independent tools: pdfsig for the signatures and their timestamps, `openssl ts -verify` for the
// tokens against the test CA, qpdf for the DSS and the file's structure. Ordered failover past a TSA
// that fails (500) and one that hangs; every TSA failing writes no seal.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { loadSigningCertificate, TimestampUnavailableError, type SealRequest, type SigningCertificate, type TsaSettings } from '../../src/pdf/index.js';
import { sealPdfWithEvidence } from '../../src/pdf/seal/index.js';
import { minimalIntegerBytes, timestampRequest } from '../../src/pdf/seal/timestamp.js';
import { makeTestTsaCa, startTsa, verifyTimestampToken, type LoopbackTsa, type TestTsaCa } from '../shared/tsa.js';

const sha256 = (b: Uint8Array): Buffer => createHash('sha256').update(b).digest();
const toArrayBuffer = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
const dirs: string[] = [];

function tool(cmd: string, args: string[], pdf: Uint8Array): { status: number | null; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'formsign-evidence-'));
  dirs.push(dir);
  const file = join(dir, 'doc.pdf');
  writeFileSync(file, pdf);
  const r = spawnSync(cmd, [...args, file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

async function request(): Promise<SealRequest> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText('Evidence test agreement', { x: 72, y: 720, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) });
  const document = await doc.save();
  return {
    document, fields: [], marks: [], dates: {}, extraSigners: [],
    audit: {
      formId: 'form_evidence', formName: 'Evidence test', documentId: 'form_evidence-signed', templateSha256: null,
      filledSha256: sha256(document).toString('hex'),
      recipients: [{
        name: 'Ada Lovelace', email: 'ada@example.com', phone: null, channel: 'email', signer: 1, sentAt: '2026-11-20T09:00:00.000Z',
        viewedAt: '2026-11-20T09:01:00.000Z', signedAt: '2026-11-20T09:02:00.000Z', viewedIp: '198.51.100.7', viewedUserAgent: 'Test/1.0',
        signedIp: '198.51.100.7', signedUserAgent: 'Test/1.0',
      }],
    },
    signingTime: new Date(),
  };
}

/** Each signature dictionary's /ByteRange and the DER in its /Contents, in file order. */
function signaturesOf(pdf: Uint8Array): Array<{ byteRange: number[]; contents: Buffer }> {
  const text = Buffer.from(pdf).toString('latin1');
  return [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((m) => {
    const byteRange = [1, 2, 3, 4].map((i) => Number(m[i]));
    const hex = text.slice(byteRange[1]! + 1, byteRange[2]! - 1);
    const der = Buffer.from(hex, 'hex');
    // The DER's own length, without the zero padding of the reserved room.
    const parsed = asn1js.fromBER(toArrayBuffer(der));
    return { byteRange, contents: der.subarray(0, parsed.offset) };
  });
}

function coveredDigest(pdf: Uint8Array, br: number[]): string {
  return createHash('sha256').update(pdf.subarray(br[0]!, br[0]! + br[1]!)).update(pdf.subarray(br[2]!, br[2]! + br[3]!)).digest('hex');
}

let ca: TestTsaCa;
let ok: LoopbackTsa;
let failing: LoopbackTsa;
let hanging: LoopbackTsa;
let cert: SigningCertificate;
let req: SealRequest;

before(async () => {
  ca = makeTestTsaCa();
  ok = await startTsa(ca);
  failing = await startTsa(ca, { mode: 'fail' });
  hanging = await startTsa(ca, { mode: 'hang' });
  const dir = mkdtempSync(join(tmpdir(), 'formsign-evidence-cert-'));
  dirs.push(dir);
  cert = loadSigningCertificate({ dataDir: dir, serviceName: 'Formsign Test' });
  req = await request();
});
after(async () => {
  await Promise.all([ok.close(), failing.close(), hanging.close()]);
  ca.remove();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// Generous: `openssl ts -reply` on a loaded 2-core machine can take a second; a hang costs this much each.
const settings = (...urls: string[]): TsaSettings => ({ urls, timeoutMs: 4000 });

describe('a seal with a TSA (signature timestamp, DSS, document timestamp)', () => {
  let pdf: Uint8Array;
  before(async () => {
    const result = await sealPdfWithEvidence(req, cert, settings(ok.url));
    // The test TSA's certificate names no OCSP responder or CRL, so no revocation data can be in the
    // file: B-T, whatever else it holds (ltv-complete.test.ts reaches B-LTA).
    assert.equal(result.level, 'B-T');
    assert.deepEqual(result.tsaFailures, []);
    pdf = result.pdf;
  });

  it('pdfsig: the seal is valid, and the document timestamp by the TSA covers the whole file', () => {
    const { out } = tool('pdfsig', [], pdf);
    const [seal, stamp] = out.split(/Signature #2:/);
    assert.ok(seal && stamp, out);
    assert.match(seal, /Signature Field Name: Seal/, out);
    assert.match(seal, /ETSI\.CAdES\.detached/, out);
    // The sealed revision is intact under the update that follows it.
    assert.match(seal, /Signature is Valid\./, out);
    assert.match(seal, /Not total document signed/, out);
    // Poppler lists the document timestamp (it does not validate ETSI.RFC3161; openssl does below).
    assert.match(stamp, /Signature Field Name: DocumentTimestamp/, out);
    assert.match(stamp, /Signer Certificate Common Name: Formsign Test TSA/, out);
    assert.match(stamp, /Total document signed/, out);
  });

  it('the CMS carries id-aa-signatureTimeStampToken over the signature value, and openssl verifies it', () => {
    const [seal] = signaturesOf(pdf);
    assert.ok(seal);
    const info = pkijs.ContentInfo.fromBER(toArrayBuffer(seal.contents));
    const signed = new pkijs.SignedData({ schema: info.content });
    const signer = signed.signerInfos[0]!;
    const attr = signer.unsignedAttrs?.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.14');
    assert.ok(attr, 'the unsigned attribute signatureTimeStampToken');
    const token = Buffer.from((attr.values[0] as asn1js.Sequence).toBER());
    const digest = sha256(Buffer.from(signer.signature.valueBlock.valueHexView)).toString('hex');
    assert.match(verifyTimestampToken(ca, token, digest), /Verification: OK/);
    // Against another digest it does not verify: the token is bound to this signature.
    assert.throws(() => verifyTimestampToken(ca, token, sha256(Buffer.from('other')).toString('hex')));
  });

  it('the document timestamp covers everything before it, the DSS included, and openssl verifies it', () => {
    const sigs = signaturesOf(pdf);
    assert.equal(sigs.length, 2);
    const docTs = sigs[1]!;
    assert.equal(docTs.byteRange[2]! + docTs.byteRange[3]!, pdf.length, 'the document timestamp covers the whole file');
    const dssAt = Buffer.from(pdf).indexOf('/DSS');
    assert.ok(dssAt > sigs[0]!.byteRange[2]! + sigs[0]!.byteRange[3]! - 1, 'the DSS is in the update after the sealed revision');
    assert.match(verifyTimestampToken(ca, docTs.contents, coveredDigest(pdf, docTs.byteRange)), /Verification: OK/);
  });

  it('qpdf: the DSS holds the signing certificate and the TSA chain; the file checks clean', () => {
    const check = tool('qpdf', ['--check'], pdf);
    assert.equal(check.status, 0, check.out);
    assert.match(check.out, /No syntax or stream encoding errors found/);
    const json = JSON.parse(tool('qpdf', ['--json', '--json-stream-data=inline', '--decode-level=generalized'], pdf).out) as { qpdf: [unknown, Record<string, { value?: Record<string, unknown>; stream?: { data?: string } }>] };
    const objects = json.qpdf[1];
    const trailer = objects['trailer']!.value as { '/Root': string };
    const root = objects[`obj:${trailer['/Root']}`]!.value as { '/DSS': string };
    assert.ok(root['/DSS'], 'the catalog names a /DSS');
    const dss = objects[`obj:${root['/DSS']}`]!.value as { '/Certs': string[] };
    const certs = dss['/Certs'].map((ref) => Buffer.from(objects[`obj:${ref}`]!.stream!.data!, 'base64'));
    assert.ok(certs.some((c) => c.equals(cert.certificateDer)), 'the signing certificate');
    const caDer = Buffer.from(ca.caCertPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    assert.ok(certs.some((c) => c.equals(caDer)), 'the TSA chain (its root)');
    assert.ok(certs.length >= 3, `signer, TSA and its CA: ${certs.length}`);
  });

  it('pdftoppm renders every page', () => {
    const r = tool('pdftoppm', ['-png', '-r', '30', '-singlefile'], pdf);
    assert.equal(r.status, 0, r.out);
  });
});

describe('ordered failover', () => {
  it('passes a TSA that fails and one that hangs, in order, and reports both', async () => {
    const before = { ok: ok.stamped, failing: failing.requests, hanging: hanging.requests };
    const started = Date.now();
    const result = await sealPdfWithEvidence(req, cert, settings(failing.url, hanging.url, ok.url));
    assert.equal(result.level, 'B-T');
    // The signature timestamp failed over; the document timestamp asked the same list again.
    assert.deepEqual(result.tsaFailures.map((f) => f.url), [failing.url, hanging.url, failing.url, hanging.url]);
    assert.match(result.tsaFailures[0]!.reason, /HTTP 500/);
    assert.match(result.tsaFailures[1]!.reason, /no answer within 4000 ms/);
    assert.equal(ok.stamped - before.ok, 2);
    assert.equal(failing.requests - before.failing, 2);
    assert.equal(hanging.requests - before.hanging, 2);
    assert.ok(Date.now() - started >= 8000, 'each hang waited its timeout');
    assert.match(tool('pdfsig', [], result.pdf).out, /Signature is Valid\./);
  });

  it('every TSA failing: no seal, TimestampUnavailableError naming each', async () => {
    await assert.rejects(sealPdfWithEvidence(req, cert, settings(failing.url, hanging.url)), (err: unknown) => {
      assert.ok(err instanceof TimestampUnavailableError);
      assert.deepEqual(err.failures.map((f) => f.url), [failing.url, hanging.url]);
      assert.match(err.message, /HTTP 500/);
      return true;
    });
  });

  it('HTTP basic credentials (TSA_USERNAME/TSA_PASSWORD) are sent; wrong ones fail over', async () => {
    const guarded = await startTsa(ca, { credentials: { username: 'formsign', password: 's3cret' } });
    try {
      const good = await sealPdfWithEvidence(req, cert, { urls: [guarded.url], timeoutMs: 3000, username: 'formsign', password: 's3cret' });
      assert.equal(good.level, 'B-T');
      await assert.rejects(sealPdfWithEvidence(req, cert, { urls: [guarded.url], timeoutMs: 3000, username: 'formsign', password: 'wrong' }), /HTTP 401/);
    } finally {
      await guarded.close();
    }
  });
});

describe('a bad token is a TSA failure, never a seal (issue 34)', () => {
  for (const mode of ['bad-signature', 'no-eku'] as const) {
    it(`${mode}: the next TSA is asked; alone, nothing is sealed`, async () => {
      const bad = await startTsa(ca, { mode });
      try {
        const reason = mode === 'bad-signature' ? /signature does not verify/ : /without the critical extended key usage timeStamping/;
        const over = await sealPdfWithEvidence(req, cert, settings(bad.url, ok.url));
        assert.equal(bad.stamped, 2, 'the bad TSA answered both requests with a token');
        assert.deepEqual(over.tsaFailures.map((f) => f.url), [bad.url, bad.url]);
        assert.match(over.tsaFailures[0]!.reason, reason);
        // What was embedded is the good TSA's: openssl verifies both tokens against the test CA.
        const [seal, docTs] = signaturesOf(over.pdf);
        assert.match(verifyTimestampToken(ca, docTs!.contents, coveredDigest(over.pdf, docTs!.byteRange)), /Verification: OK/);
        assert.match(tool('pdfsig', [], over.pdf).out, /Signer Certificate Common Name: Formsign Test TSA/);
        assert.ok(seal);
        await assert.rejects(sealPdfWithEvidence(req, cert, settings(bad.url)), (err: unknown) => {
          assert.ok(err instanceof TimestampUnavailableError);
          assert.match(err.message, reason);
          return true;
        });
      } finally {
        await bad.close();
      }
    });
  }
});

describe('the TSA request nonce is a DER INTEGER (issue 34)', () => {
  it('a nonce beginning 00 7f is sent without its leading zero; one beginning 80 gets one', () => {
    assert.deepEqual([...minimalIntegerBytes(Uint8Array.from([0x00, 0x7f, 0x01, 0x02]))], [0x7f, 0x01, 0x02]);
    assert.deepEqual([...minimalIntegerBytes(Uint8Array.from([0x00, 0x00, 0x80, 0x01]))], [0x00, 0x80, 0x01]);
    assert.deepEqual([...minimalIntegerBytes(Uint8Array.from([0x80, 0x01]))], [0x00, 0x80, 0x01]);
    assert.deepEqual([...minimalIntegerBytes(Uint8Array.from([0x00, 0x00]))], [0x00]);
    const der = timestampRequest(sha256(Buffer.from('x')), Uint8Array.from([0x00, 0x7f, 1, 2, 3, 4, 5, 6]));
    const parsed = pkijs.TimeStampReq.fromBER(toArrayBuffer(der));
    // The nonce's own encoding in the request: tag, length 7, then 7f …
    const nonce = Buffer.from(parsed.nonce!.toBER());
    assert.equal(nonce.toString('hex'), '02077f010203040506');
    assert.ok(der.includes(nonce), 'the request carries the minimal encoding');
    // openssl reads the request as DER and shows the same number.
    const dir = mkdtempSync(join(tmpdir(), 'formsign-tsq-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'q.tsq'), der);
    const r = spawnSync('openssl', ['ts', '-query', '-in', join(dir, 'q.tsq'), '-text'], { encoding: 'utf8' });
    assert.match(r.stdout, /Nonce: 0x7F010203040506/i, r.stderr);
  });
});

describe('without TSAs', () => {
  it('stays B-B: one signature over the whole file, no DSS', async () => {
    const result = await sealPdfWithEvidence(req, cert);
    assert.equal(result.level, 'B-B');
    const { out } = tool('pdfsig', [], result.pdf);
    assert.match(out, /Total document signed/);
    assert.doesNotMatch(out, /Signature #2/);
    assert.equal(Buffer.from(result.pdf).indexOf('/DSS'), -1);
  });
});
