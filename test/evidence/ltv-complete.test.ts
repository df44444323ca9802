// Complete long-term validation data (issue 34 items 5, 6): with a loopback PKI (root → intermediate →
// the sealing certificate and two TSA certificates, every one naming a loopback OCSP responder and
// CRL), the DSS holds revocation data for every certificate the seal depends on — the sealing chain,
// the signature timestamp's TSA chain and the document timestamp's, here another TSA — each checked
// with `openssl ocsp -respin` / `openssl crl`. The level is computed from what the file holds: with
// the responders down it is B-T, not B-LTA. A revoked or expired sealing certificate seals nothing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { loadSigningCertificate, SigningCertificateRefusedError, type SealRequest, type SigningCertificate } from '../../src/pdf/index.js';
import { sealPdfWithEvidence } from '../../src/pdf/seal/index.js';
import { startLoopbackPki, type IssuedCertificate, type LoopbackPki } from '../shared/loopback-pki.js';
import { startTsa, type LoopbackTsa } from '../shared/tsa.js';

let pki: LoopbackPki;
let sealCert: IssuedCertificate;
let tsaA: IssuedCertificate;
let tsaB: IssuedCertificate;
let cert: SigningCertificate;
const servers: LoopbackTsa[] = [];
const TSA_EXT = 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n';

async function request(signingTime = new Date()): Promise<SealRequest> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]).drawText('LTV complete', { x: 72, y: 720, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) });
  const document = await doc.save();
  return {
    document, fields: [], marks: [], dates: {}, extraSigners: [], signingTime,
    audit: {
      formId: 'form_ltv2', formName: 'LTV complete', documentId: 'form_ltv2-signed', templateSha256: null, filledSha256: createHash('sha256').update(document).digest('hex'),
      recipients: [{ name: 'Ada', email: 'ada@example.com', phone: null, channel: 'email', signer: 1, sentAt: '2026-11-20T09:00:00.000Z', viewedAt: null, signedAt: '2026-11-20T09:02:00.000Z', viewedIp: null, viewedUserAgent: null, signedIp: '198.51.100.7', signedUserAgent: 'Test/1.0' }],
    },
  };
}

/** The DSS's streams (decoded), read with qpdf from the last revision. */
function dss(pdf: Uint8Array): Record<'certs' | 'ocsps' | 'crls', Buffer[]> {
  const file = path.join(pki.dir, `sealed-${Date.now()}.pdf`);
  fs.writeFileSync(file, pdf);
  const out = execFileSync('qpdf', ['--json', '--json-stream-data=inline', '--decode-level=generalized', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const objects = (JSON.parse(out) as { qpdf: [unknown, Record<string, { value?: Record<string, unknown>; stream?: { data?: string } }>] }).qpdf[1];
  const root = objects[`obj:${(objects['trailer']!.value as { '/Root': string })['/Root']}`]!.value as { '/DSS': string };
  const d = objects[`obj:${root['/DSS']}`]!.value as Record<string, string[] | undefined>;
  const read = (key: string): Buffer[] => (d[key] ?? []).map((ref) => Buffer.from(objects[`obj:${ref}`]!.stream!.data!, 'base64'));
  return { certs: read('/Certs'), ocsps: read('/OCSPs'), crls: read('/CRLs') };
}

/** Serial numbers (upper-case hex) `openssl ocsp -respin` reads as good in each response, checked against the issuer. */
function ocspGood(ocsps: Buffer[]): string[] {
  return ocsps.flatMap((der, i) => {
    const file = path.join(pki.dir, `dss-ocsp-${i}.der`);
    fs.writeFileSync(file, der);
    // -noverify: the responder's signature is the intermediate's own (its responses are checked here for content).
    const text = execFileSync('openssl', ['ocsp', '-respin', file, '-resp_text', '-noverify'], { encoding: 'utf8' });
    assert.match(text, /OCSP Response Status: successful/);
    return [...text.matchAll(/Serial Number: ([0-9A-F]+)\s+Cert Status: good/g)].map((m) => m[1]!);
  });
}

/** Issuers of the CRLs, as `openssl crl` reads them. */
function crlIssuers(crls: Buffer[]): string[] {
  return crls.map((der, i) => {
    const file = path.join(pki.dir, `dss-crl-${i}.der`);
    fs.writeFileSync(file, der);
    return execFileSync('openssl', ['crl', '-inform', 'DER', '-in', file, '-noout', '-issuer'], { encoding: 'utf8' }).trim();
  });
}

const stripZeros = (serial: string): string => serial.replace(/^0+/, '');

before(async () => {
  pki = await startLoopbackPki();
  sealCert = pki.issue('seal', { extensions: 'keyUsage=critical,digitalSignature,nonRepudiation\n' });
  tsaA = pki.issue('tsaA', { extensions: TSA_EXT });
  tsaB = pki.issue('tsaB', { extensions: TSA_EXT });
  cert = loadSigningCertificate({ p12Path: pki.p12(sealCert, 's3cret'), password: 's3cret', dataDir: pki.dir, serviceName: 'Formsign' });
});
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await pki.close();
});

describe('complete LTV with a loopback PKI (issue 34)', () => {
  it('the DSS holds revocation data for the sealing chain and both TSA chains; the level is B-LTA', async () => {
    // A answers the signature timestamp, then fails: the document timestamp comes from B.
    const a = await startTsa(pki.tsa(tsaA), { failAfter: 1 });
    const b = await startTsa(pki.tsa(tsaB));
    servers.push(a, b);
    const { pdf, level, tsaFailures } = await sealPdfWithEvidence(await request(), cert, { urls: [a.url, b.url], timeoutMs: 5000 });
    assert.deepEqual([a.stamped, b.stamped, tsaFailures.map((f) => f.url)], [1, 1, [a.url]]);
    assert.equal(level, 'B-LTA');
    const data = dss(pdf);
    for (const c of [sealCert, pki.intermediate, pki.root, tsaA, tsaB]) assert.ok(data.certs.some((d) => d.equals(c.der)), `the DSS holds ${c.name}'s certificate`);
    // OCSP for the end-entity certificates (their AIA), the root's CRL for the intermediate (its CRL DP only).
    const good = ocspGood(data.ocsps).map(stripZeros);
    for (const c of [sealCert, tsaA, tsaB]) assert.ok(good.includes(stripZeros(c.serial)), `an OCSP response says ${c.name} is good: ${good.join(', ')}`);
    assert.deepEqual(crlIssuers(data.crls), ['issuer=CN = Formsign Test root, O = Formsign tests']);
    // The document timestamp's TSA was known only after it answered: its data is one more DSS update.
    assert.equal(Buffer.from(pdf).toString('latin1').match(/%%EOF/g)?.length, 3);
    const file = path.join(pki.dir, 'complete.pdf');
    fs.writeFileSync(file, pdf);
    assert.match(execFileSync('qpdf', ['--check', file], { encoding: 'utf8' }), /No syntax or stream encoding errors found/);
    const sig = execFileSync('pdfsig', [file], { encoding: 'utf8' });
    assert.match(sig, /Signer Certificate Common Name: Formsign Test seal/);
    assert.match(sig, /Signature is Valid\./);
    assert.match(sig, /Signature Field Name: DocumentTimestamp/);
  });

  it('with every responder down the seal is made, but labelled B-T: nothing in it proves the status', async () => {
    const a = await startTsa(pki.tsa(tsaA));
    servers.push(a);
    pki.down = true;
    try {
      const { pdf, level } = await sealPdfWithEvidence(await request(), cert, { urls: [a.url], timeoutMs: 3000 });
      assert.equal(level, 'B-T');
      const data = dss(pdf);
      assert.deepEqual([data.ocsps.length, data.crls.length], [0, 0]);
    } finally {
      pki.down = false;
    }
  });

  it('without TSAs: B-B', async () => {
    const { level } = await sealPdfWithEvidence(await request(), cert);
    assert.equal(level, 'B-B');
  });

  it('an expired sealing certificate seals nothing, and asks no TSA', async () => {
    const a = await startTsa(pki.tsa(tsaA));
    servers.push(a);
    const late = new Date(Date.now() + 400 * 86_400_000);
    await assert.rejects(sealPdfWithEvidence(await request(late), cert, { urls: [a.url], timeoutMs: 3000 }), (err: unknown) => {
      assert.ok(err instanceof SigningCertificateRefusedError);
      assert.equal(err.reason, 'expired');
      assert.match(err.message, /The signing certificate is expired: .*Formsign Test (root|intermediate|seal)/);
      return true;
    });
    assert.equal(a.requests, 0);
  });

  // Last: the revocation stays.
  it('a revoked sealing certificate seals nothing (OCSP says so; then the CRL, with the responder gone), with or without TSAs', async () => {
    const a = await startTsa(pki.tsa(tsaA));
    servers.push(a);
    pki.revoke(sealCert);
    const refused = (source: RegExp) => (err: unknown): boolean => {
      assert.ok(err instanceof SigningCertificateRefusedError);
      assert.equal(err.reason, 'revoked');
      assert.match(err.message, /The signing certificate is revoked: CN=Formsign Test seal, serial [0-9a-f]+ \(/);
      assert.match(err.message, source);
      return true;
    };
    await assert.rejects(sealPdfWithEvidence(await request(), cert, { urls: [a.url], timeoutMs: 3000 }), refused(/OCSP, http:\/\/127\.0\.0\.1:\d+\/ocsp\/intermediate/));
    await assert.rejects(sealPdfWithEvidence(await request(), cert), refused(/OCSP/));
    assert.equal(a.requests, 0, 'no TSA was asked');
    const only = loadSigningCertificate({ p12Path: pki.p12(sealCert, 'x'), password: 'x', dataDir: pki.dir, serviceName: 'Formsign' });
    // The responder answering 500 for OCSP only is not offered by the PKI; a certificate without AIA is.
    const crlOnly = pki.issue('seal-crl', { extensions: 'keyUsage=critical,digitalSignature,nonRepudiation\n', ocsp: false });
    pki.revoke(crlOnly);
    const crlCert = loadSigningCertificate({ p12Path: pki.p12(crlOnly, 'y'), password: 'y', dataDir: pki.dir, serviceName: 'Formsign' });
    await assert.rejects(sealPdfWithEvidence(await request(), crlCert), (err: unknown) => {
      assert.ok(err instanceof SigningCertificateRefusedError);
      assert.match(err.message, /CN=Formsign Test seal-crl, serial [0-9a-f]+ \(CRL, http:\/\/127\.0\.0\.1:\d+\/crl\/intermediate\.crl\)/);
      return true;
    });
    assert.ok(only.subject.includes('Formsign Test seal'));
  });
});
