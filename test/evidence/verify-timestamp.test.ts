import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { loadSigningCertificate, makeSampleTemplatePdf, sealPdf, type SigningCertificate } from '../../src/pdf/index.js';
import { verifyPdf } from '../../src/pdf/verify/index.js';
import { makeTokenMaker, type TokenMaker } from './timestamp-token.js';

// PAdES B-T as the verifier reads it: a seal whose CMS carries an RFC 3161 token
// (id-aa-signatureTimeStampToken) over its signature value, the token made by `openssl ts` under a
// test CA. The token goes into the unsigned attributes, which the signature does not cover, so the
// CMS is rewritten in /Contents' reserved room without touching the signed bytes.

const TOKEN_OID = '1.2.840.113549.1.9.16.2.14';
const ab = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/** The sealed PDF with `token(signatureValue)` added to its signer's unsigned attributes. */
function withSignatureTimestamp(pdf: Buffer, token: (signatureValue: Buffer) => Buffer): Buffer {
  const text = pdf.toString('latin1');
  const m = /\/ByteRange\s*\[\s*0\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)!;
  const [start, end] = [Number(m[1]), Number(m[2])];
  const hex = text.slice(start + 1, end - 1);
  const info = pkijs.ContentInfo.fromBER(ab(Buffer.from(hex, 'hex')));
  const signed = new pkijs.SignedData({ schema: info.content });
  const signer = signed.signerInfos[0]!;
  const value = Buffer.from(signer.signature.valueBlock.valueHexView);
  const tokenDer = token(value);
  signer.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 1,
    attributes: [new pkijs.Attribute({ type: TOKEN_OID, values: [asn1js.fromBER(ab(tokenDer)).result] })],
  });
  const der = Buffer.from(new pkijs.ContentInfo({ contentType: info.contentType, content: signed.toSchema(true) }).toSchema().toBER());
  const room = (end - start - 2) / 2;
  assert.ok(der.length <= room, `the CMS with its token (${der.length} bytes) fits the ${room} reserved`);
  const out = Buffer.from(pdf);
  out.write(der.toString('hex').toUpperCase().padEnd(room * 2, '0'), start + 1, 'latin1');
  return out;
}

describe('signature timestamps (PAdES B-T) in the verifier', () => {
  let tsa: TokenMaker;
  let cert: SigningCertificate;
  let dir: string;
  let sealed: Buffer;
  before(async () => {
    tsa = makeTokenMaker();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-bt-'));
    cert = loadSigningCertificate({ dataDir: dir, serviceName: 'Formsign' });
    const sample = await makeSampleTemplatePdf();
    const filledSha256 = createHash('sha256').update(sample.pdf).digest('hex');
    sealed = Buffer.from(await sealPdf({
      document: sample.pdf, fields: sample.fields, marks: [], dates: {}, extraSigners: [], signingTime: new Date(),
      audit: { formId: 'form_TimestampTest00000000001', formName: 'Sample', documentId: 'd', templateSha256: null, filledSha256, recipients: [] },
    }, cert));
  });
  after(() => {
    tsa.remove();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const service = () => ({ certificateDer: cert.certificateDer, chainDer: [] });

  it('a token over the signature value: timestamp valid, with the TSA named and its time; the seal stays valid and ours', async () => {
    const started = Date.now();
    const pdf = withSignatureTimestamp(sealed, (value) => tsa.token(createHash('sha256').update(value).digest()));
    const v = await verifyPdf(pdf, service());
    assert.equal(v.intact, true);
    assert.equal(v.issued_by_this_service, true);
    const [s] = v.signatures;
    assert.equal(s!.valid, true);
    assert.ok(s!.timestamp, 'the timestamp is reported');
    assert.equal(s!.timestamp!.valid, true);
    assert.match(s!.timestamp!.tsa, /Verify Test TSA/);
    const time = Date.parse(s!.timestamp!.time);
    assert.ok(time >= started - 5_000 && time <= Date.now() + 5_000, `genTime ${s!.timestamp!.time} is now`);
  });

  it('a token over something else: the timestamp is reported not valid, the seal itself still valid', async () => {
    const pdf = withSignatureTimestamp(sealed, () => tsa.token(createHash('sha256').update('another signature').digest()));
    const v = await verifyPdf(pdf, service());
    assert.equal(v.signatures[0]!.valid, true);
    assert.equal(v.signatures[0]!.timestamp!.valid, false);
  });

  it('no token: no timestamp in the answer', async () => {
    const v = await verifyPdf(sealed, service());
    assert.equal(v.signatures[0]!.timestamp, undefined);
  });
});
