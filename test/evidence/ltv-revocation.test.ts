// B-LT with an operator's certificate (SIGNING_CERT_P12) whose chain names where its status is
// published: a test CA made with openssl issues the sealing certificate with an OCSP responder
// (Authority Information Access) and a CRL distribution point, both on a loopback server (`openssl
// ocsp` answers each request; the CRL is `openssl ca -gencrl`). The seal carries the chain, and the DSS
// holds the chain, the TSA's certificates and the OCSP response — or the CRL when the responder is down.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import * as pkijs from 'pkijs';
import { loadSigningCertificate, type SealRequest, type SigningCertificate } from '../../src/pdf/index.js';
import { sealPdfWithEvidence } from '../../src/pdf/seal/index.js';
import { makeTestTsaCa, startTsa, type LoopbackTsa, type TestTsaCa } from '../shared/tsa.js';

const run = promisify(execFile);
const toArrayBuffer = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
const pemToDer = (pem: string): Buffer => Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');

let ca: TestTsaCa;
let tsa: LoopbackTsa;
let server: http.Server;
let ocspDown = false;
let ocspRequests = 0;
let crlRequests = 0;
let cert: SigningCertificate;
let caDer: Buffer;
const f = (name: string): string => path.join(ca.dir, name);

/** Streams of one DSS array (/Certs, /OCSPs or /CRLs), decoded, read with qpdf. */
function dssEntries(pdf: Uint8Array, key: '/Certs' | '/OCSPs' | '/CRLs'): Buffer[] {
  const file = f(`sealed-${Date.now()}.pdf`);
  fs.writeFileSync(file, pdf);
  const out = execFileSync('qpdf', ['--json', '--json-stream-data=inline', '--decode-level=generalized', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  fs.rmSync(file);
  const objects = (JSON.parse(out) as { qpdf: [unknown, Record<string, { value?: Record<string, unknown>; stream?: { data?: string } }>] }).qpdf[1];
  const root = objects[`obj:${(objects['trailer']!.value as { '/Root': string })['/Root']}`]!.value as { '/DSS': string };
  const dss = objects[`obj:${root['/DSS']}`]!.value as Record<string, string[] | undefined>;
  return (dss[key] ?? []).map((ref) => Buffer.from(objects[`obj:${ref}`]!.stream!.data!, 'base64'));
}

async function request(): Promise<SealRequest> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]).drawText('LTV test', { x: 72, y: 720, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) });
  const document = await doc.save();
  return {
    document, fields: [], marks: [], dates: {}, extraSigners: [], signingTime: new Date(),
    audit: {
      formId: 'form_ltv', formName: 'LTV test', documentId: 'form_ltv-signed', templateSha256: null, filledSha256: createHash('sha256').update(document).digest('hex'),
      recipients: [{ name: 'Ada', email: 'ada@example.com', phone: null, channel: 'email', signer: 1, sentAt: '2026-11-20T09:00:00.000Z', viewedAt: null, signedAt: '2026-11-20T09:02:00.000Z', viewedIp: null, viewedUserAgent: null, signedIp: '198.51.100.7', signedUserAgent: 'Test/1.0' }],
    },
  };
}

before(async () => {
  ca = makeTestTsaCa();
  tsa = await startTsa(ca);
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/ca.crl') {
        crlRequests++;
        res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(fs.readFileSync(f('ca.crl')));
        return;
      }
      ocspRequests++;
      if (ocspDown) {
        res.writeHead(500).end();
        return;
      }
      const n = ocspRequests;
      fs.writeFileSync(f(`ocsp${n}.req`), Buffer.concat(chunks));
      run('openssl', ['ocsp', '-index', f('index.txt'), '-rsigner', f('ca.pem'), '-rkey', f('ca.key'), '-CA', f('ca.pem'), '-reqin', f(`ocsp${n}.req`), '-respout', f(`ocsp${n}.resp`)])
        .then(() => res.writeHead(200, { 'content-type': 'application/ocsp-response' }).end(fs.readFileSync(f(`ocsp${n}.resp`))))
        .catch((err: unknown) => res.writeHead(500).end(String(err)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // The operator's certificate, issued by the test CA with its AIA (OCSP) and CRL DP.
  fs.writeFileSync(f('index.txt'), '');
  fs.writeFileSync(f('crlnumber'), '01\n');
  fs.writeFileSync(f('ca.cnf'), `[ ca ]\ndefault_ca = test\n[ test ]\ndatabase = ${f('index.txt')}\ncrlnumber = ${f('crlnumber')}\ndefault_md = sha256\ndefault_crl_days = 30\n`);
  execFileSync('openssl', ['ca', '-gencrl', '-config', f('ca.cnf'), '-keyfile', f('ca.key'), '-cert', f('ca.pem'), '-out', f('ca.crl.pem')], { stdio: 'ignore' });
  execFileSync('openssl', ['crl', '-in', f('ca.crl.pem'), '-outform', 'DER', '-out', f('ca.crl')]);
  execFileSync('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('op.key'), '-out', f('op.csr'), '-subj', '/CN=Acme Rentals seal/O=Acme Rentals'], { stdio: 'ignore' });
  fs.writeFileSync(f('op.ext'), `keyUsage=critical,digitalSignature,nonRepudiation\nauthorityInfoAccess=OCSP;URI:${base}/ocsp\ncrlDistributionPoints=URI:${base}/ca.crl\n`);
  execFileSync('openssl', ['x509', '-req', '-in', f('op.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('op.pem'), '-days', '30', '-extfile', f('op.ext')], { stdio: 'ignore' });
  // A PKCS#12 file with the chain, in the algorithms node-forge reads (as an older CA's export would be).
  execFileSync('openssl', ['pkcs12', '-export', '-inkey', f('op.key'), '-in', f('op.pem'), '-certfile', f('ca.pem'), '-out', f('op.p12'), '-passout', 'pass:s3cret',
    '-keypbe', 'PBE-SHA1-3DES', '-certpbe', 'PBE-SHA1-3DES', '-macalg', 'sha1']);
  cert = loadSigningCertificate({ p12Path: f('op.p12'), password: 's3cret', dataDir: ca.dir, serviceName: 'Formsign' });
  caDer = pemToDer(ca.caCertPem);
});
after(async () => {
  await tsa.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  ca.remove();
});

describe('an operator certificate with its chain (SIGNING_CERT_P12)', () => {
  it('the seal carries the chain; the DSS holds it, the TSA certificate and the OCSP response', async () => {
    assert.match(cert.subject, /Acme Rentals seal/);
    assert.equal(cert.chainDer.length, 1);
    const { pdf, level } = await sealPdfWithEvidence(await request(), cert, { urls: [tsa.url], timeoutMs: 5000 });
    // The test TSA's certificate names no OCSP responder or CRL: its status cannot be in the file, so
    // the seal is honestly B-T (ltv-complete.test.ts reaches B-LTA with a PKI that names them).
    assert.equal(level, 'B-T');
    const certs = dssEntries(pdf, '/Certs');
    assert.ok(certs.some((c) => c.equals(cert.certificateDer)), 'the signing certificate');
    assert.ok(certs.some((c) => c.equals(caDer)), 'its issuer');
    assert.ok(certs.some((c) => c.equals(pemToDer(fs.readFileSync(ca.tsaCertFile, 'utf8')))), 'the TSA certificate');
    const ocsps = dssEntries(pdf, '/OCSPs');
    assert.equal(ocsps.length, 1, 'one OCSP response, for the signing certificate (the root names no responder)');
    const response = pkijs.OCSPResponse.fromBER(toArrayBuffer(ocsps[0]!));
    assert.equal(response.responseStatus.valueBlock.valueDec, 0, 'a successful OCSP response');
    const basic = pkijs.BasicOCSPResponse.fromBER(response.responseBytes!.response.valueBlock.valueHexView);
    assert.equal(Buffer.from(basic.tbsResponseData.responses[0]!.certID.serialNumber.valueBlock.valueHexView).toString('hex'),
      Buffer.from(pkijs.Certificate.fromBER(toArrayBuffer(cert.certificateDer)).serialNumber.valueBlock.valueHexView).toString('hex'));
    assert.deepEqual(dssEntries(pdf, '/CRLs'), [], 'no CRL needed beside the OCSP response');
    const check = execFileSync('pdfsig', [writeTemp(pdf)], { encoding: 'utf8' });
    assert.match(check, /Signer Certificate Common Name: Acme Rentals seal/);
    assert.match(check, /Signature is Valid\./);
  });

  it('with the responder down, the DSS holds the CRL from the distribution point instead', async () => {
    ocspDown = true;
    const crlsBefore = crlRequests;
    try {
      const { pdf } = await sealPdfWithEvidence(await request(), cert, { urls: [tsa.url], timeoutMs: 5000 });
      assert.deepEqual(dssEntries(pdf, '/OCSPs'), []);
      const crls = dssEntries(pdf, '/CRLs');
      assert.equal(crls.length, 1);
      assert.ok(crls[0]!.equals(fs.readFileSync(f('ca.crl'))), 'the CRL as published');
      assert.equal(crlRequests - crlsBefore, 1);
    } finally {
      ocspDown = false;
    }
  });
});

function writeTemp(pdf: Uint8Array): string {
  const file = f(`check-${Date.now()}.pdf`);
  fs.writeFileSync(file, pdf);
  return file;
}
