// Makes test/fixtures/pdfs/attacks/*.pdf and manifest.json: PDFs sealed by our own code with the
// corpus's service certificate (service-seal.p12, made once and kept so the files stay ours), then
// changed the ways an attacker (or an honest validation tool) changes a signed PDF, each with the
// verdict the verifier must give. test/evidence/verify-attacks.test.ts checks every verdict through
// POST /api/v1/verify, the /verify page and the compiled `formsign verify`.
//
//   node --import tsx scripts/make-attack-corpus.ts
//
// pyHanko is not installable here, so "another tool's" LTV update is written by incremental.ts the
// way pyHanko writes one (an xref stream, the DSS rewritten with new streams and a /VRI entry, the
// catalog's /Extensions), not by pyHanko itself; and pyhanko-blta*.pdf, documents signed by another
// signer from the start, are written by attack-corpus/pyhanko-style.ts the way pyHanko's signer,
// DocumentSecurityStore and PdfTimeStamper write them (read from its public source).
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFRawStream, PDFRef, PDFString, StandardFonts, rgb } from '@cantoo/pdf-lib';
import { loadSigningCertificate, type SigningCertificate } from '../src/pdf/index.js';
import { sealPdfWithEvidence } from '../src/pdf/seal/index.js';
import { FORM_ID_KEY } from '../src/pdf/shared/document-info.js';
import { makeTestTsaCa, startTsa } from '../test/shared/tsa.js';
import type { CorpusEntry, CorpusManifest, ExpectedSignature } from './attack-corpus/manifest.js';
import { appendSignature, appendUpdate, hybridOf, lastTrailer, load, N, nextNumber, stream } from './attack-corpus/incremental.js';
import { pyHankoArchivalTimestamp, pyHankoBlta } from './attack-corpus/pyhanko-style.js';

const OUT = path.resolve('test/fixtures/pdfs/attacks');
const P12 = path.join(OUT, 'service-seal.p12');
const P12_PASSWORD = 'attack-corpus';
const FORM_ID = 'form_AttackCorpus000000000001';

type Entry = CorpusEntry;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-corpus-'));
const ssl = (...args: string[]): void => {
  execFileSync('openssl', args, { cwd: tmp, stdio: ['ignore', 'ignore', 'pipe'] });
};
const t = (name: string): string => path.join(tmp, name);

/** The corpus's service certificate: made once, then kept (the committed PDFs are sealed with it). */
function serviceCertificate(): SigningCertificate {
  if (!fs.existsSync(P12)) {
    ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', t('svc.key'), '-out', t('svc.pem'), '-days', '7300',
      '-subj', '/CN=Formsign attack corpus seal/O=Formsign tests');
    ssl('pkcs12', '-export', '-inkey', t('svc.key'), '-in', t('svc.pem'), '-out', P12, '-passout', `pass:${P12_PASSWORD}`);
  }
  return loadSigningCertificate({ p12Path: P12, password: P12_PASSWORD, dataDir: tmp, serviceName: 'Formsign' });
}

/** Another signer (an attacker signing after changing the document). */
function malloryCertificate(): SigningCertificate {
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', t('m.key'), '-out', t('m.pem'), '-days', '3650', '-subj', '/CN=Mallory Signer/O=Elsewhere');
  ssl('pkcs12', '-export', '-inkey', t('m.key'), '-in', t('m.pem'), '-out', t('m.p12'), '-passout', 'pass:m');
  return loadSigningCertificate({ p12Path: t('m.p12'), password: 'm', dataDir: tmp, serviceName: 'x' });
}

/** A CA (files `<name>-ca.pem`/`.key`) and a signing certificate it issued (`<name>.pem`, and a PKCS#12 with the CA). */
function caAndLeaf(name: string, ca: string, leaf: string, serial: string): { cert: SigningCertificate; caDer: Buffer; leaf: X509Certificate } {
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', t(`${name}-ca.key`), '-out', t(`${name}-ca.pem`), '-days', '3650', '-subj', ca,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign,digitalSignature');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', t(`${name}.key`), '-out', t(`${name}.csr`), '-subj', leaf);
  fs.writeFileSync(t(`${name}.ext`), 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\n');
  ssl('x509', '-req', '-in', t(`${name}.csr`), '-CA', t(`${name}-ca.pem`), '-CAkey', t(`${name}-ca.key`), '-set_serial', serial, '-out', t(`${name}.pem`), '-days', '3650', '-extfile', t(`${name}.ext`));
  ssl('pkcs12', '-export', '-inkey', t(`${name}.key`), '-in', t(`${name}.pem`), '-certfile', t(`${name}-ca.pem`), '-out', t(`${name}.p12`), '-passout', 'pass:p');
  return {
    cert: loadSigningCertificate({ p12Path: t(`${name}.p12`), password: 'p', dataDir: tmp, serviceName: 'x' }),
    caDer: Buffer.from(new X509Certificate(fs.readFileSync(t(`${name}-ca.pem`))).raw),
    leaf: new X509Certificate(fs.readFileSync(t(`${name}.pem`))),
  };
}

/** A CA, a seal certificate it revoked, and the CA's OCSP answer saying so (DER). */
function revokedCertificate(): { cert: SigningCertificate; caDer: Buffer; ocsp: Buffer } {
  const { cert, caDer, leaf } = caAndLeaf('revoked', '/CN=Corpus Revoking CA/O=Formsign tests', '/CN=Revoked seal/O=Formsign tests', '4242');
  // openssl's index: R, expiry, revocation time, serial (hex), file, subject.
  const day = (d: Date): string => `${d.toISOString().slice(2, 10).replace(/-/g, '')}${d.toISOString().slice(11, 19).replace(/:/g, '')}Z`;
  fs.writeFileSync(t('index.txt'), `R\t${day(new Date(leaf.validTo))}\t${day(new Date(Date.now() - 86_400_000))},keyCompromise\t${leaf.serialNumber}\tunknown\t/CN=Revoked seal/O=Formsign tests\n`);
  ssl('ocsp', '-issuer', t('revoked-ca.pem'), '-cert', t('revoked.pem'), '-reqout', t('req.der'), '-no_nonce');
  ssl('ocsp', '-index', t('index.txt'), '-rsigner', t('revoked-ca.pem'), '-rkey', t('revoked-ca.key'), '-CA', t('revoked-ca.pem'), '-reqin', t('req.der'), '-respout', t('resp.der'), '-ndays', '3650');
  return { cert, caDer, ocsp: fs.readFileSync(t('resp.der')) };
}

/** A foreign signer (not this service): a CA, its signer certificate, and the CA's OCSP answer that it is good (DER). */
function foreignSigner(): { cert: SigningCertificate; caDer: Buffer; leafDer: Buffer; ocsp: Buffer } {
  const { cert, caDer, leaf } = caAndLeaf('foreign', '/CN=Elsewhere Signing CA/O=Elsewhere', '/CN=Pat Foreign Signer/O=Elsewhere', '7001');
  return { cert, caDer, leafDer: Buffer.from(leaf.raw), ocsp: goodOcsp(t('foreign-ca.pem'), t('foreign-ca.key'), t('foreign.pem')) };
}

/**
 * An unsigned document another tool signs: one page and /Info, saved with an xref stream (object
 * streams), with a classic table and an older header, or as a hybrid-reference file whose page and
 * /Info are in an object stream only its /XRefStm names.
 */
async function foreignSource(kind: 'xref-stream' | 'classic-1.4' | 'hybrid'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Service agreement');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Service agreement', { x: 72, y: 760, size: 20, font });
  page.drawText('Fee: 2,400 EUR per year.', { x: 72, y: 700, size: 14, font });
  const pdf = Buffer.from(await doc.save({ useObjectStreams: kind === 'xref-stream' }));
  if (kind === 'hybrid') return hybridOf(pdf, [page.ref.objectNumber, (doc.context.trailerInfo.Info as PDFRef).objectNumber]);
  // pyHanko raises an older header to 1.7 with the catalog's /Version: give the classic one 1.4.
  return kind === 'xref-stream' ? pdf : Buffer.concat([Buffer.from('%PDF-1.4'), pdf.subarray(8)]);
}

/** A good OCSP answer for the TSA's certificate by its CA (what an LTV tool fetches). */
function goodOcsp(caCertFile: string, caKeyFile: string, certFile: string): Buffer {
  const c = new X509Certificate(fs.readFileSync(certFile));
  fs.writeFileSync(t('good-index.txt'), `V\t301231000000Z\t\t${c.serialNumber}\tunknown\t${'/' + c.subject.split('\n').join('/')}\n`);
  ssl('ocsp', '-issuer', caCertFile, '-cert', certFile, '-reqout', t('good-req.der'), '-no_nonce');
  ssl('ocsp', '-index', t('good-index.txt'), '-rsigner', caCertFile, '-rkey', caKeyFile, '-CA', caCertFile, '-reqin', t('good-req.der'), '-respout', t('good-resp.der'), '-ndays', '3650');
  return fs.readFileSync(t('good-resp.der'));
}

interface Source {
  pdf: Uint8Array;
}

const SHADOW_HIDE = '%shadow-hide\n';
const SHADOW_REPLACE = '%shadow-replace\n';

/**
 * The document to seal: a payment order whose payee line is covered by a form XObject ("Cover")
 * drawing the honest payee over a hidden one, with two objects nothing refers to: an empty cover and
 * another content stream for page 1 (the "shadow" content).
 */
async function source(): Promise<Source> {
  const doc = await PDFDocument.create();
  doc.setTitle('Payment order');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  const ctx = doc.context;
  const cover = ctx.register(stream(ctx, 'q 1 1 1 rg 0 0 400 30 re f Q BT /F1 14 Tf 2 10 Td (Payee: Alice Example, IBAN DE00 1234 5678) Tj ET', {
    Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 400, 30], Resources: { Font: { F1: font.ref } },
  }) as PDFRawStream);
  const text = (amount: string): string => [
    'BT /F1 20 Tf 72 760 Td (Payment order) Tj ET',
    'BT /F1 14 Tf 74 710 Td (Payee: Mallory Attacker, IBAN XX66 6666 6666) Tj ET',
    'q 1 0 0 1 72 700 cm /Cover Do Q',
    `BT /F1 14 Tf 74 660 Td (Amount: ${amount} EUR) Tj ET`,
    'BT /F1 11 Tf 74 620 Td (Signed and sealed by Formsign.) Tj ET',
  ].join('\n');
  const contents = ctx.register(stream(ctx, text('100')) as PDFRawStream);
  // The shadow objects, carried as the data of a stream nothing refers to, each written as a whole
  // object definition with the number it will take over ("N 0 obj … endobj"): an update that only
  // points N's cross-reference entry at it gives readers a well-formed object N.
  const shadow = text('100000');
  ctx.register(stream(ctx, `${SHADOW_HIDE}${cover.objectNumber} 0 obj\n<< /Type /XObject /Subtype /Form /BBox [0 0 400 30] /Length 0 >>\nstream\n\nendstream\nendobj\n`
    + `${SHADOW_REPLACE}${contents.objectNumber} 0 obj\n<< /Length ${shadow.length} >>\nstream\n${shadow}\nendstream\nendobj\n`) as PDFRawStream);
  page.node.set(N('Contents'), contents);
  page.node.set(N('Resources'), ctx.obj({ Font: { F1: font.ref }, XObject: { Cover: cover } }));
  const pdf = await doc.save({ useObjectStreams: false });
  return { pdf };
}

/** Where a shadow object's definition starts in the sealed bytes (after its marker). */
function shadowAt(pdf: Uint8Array, marker: string): number {
  const at = Buffer.from(pdf).indexOf(marker, 0, 'latin1');
  if (at < 0) throw new Error(`the sealed file lost its shadow object ${marker.trim()}`);
  return at + marker.length;
}

async function seal(pdf: Uint8Array, cert: SigningCertificate, tsaUrl?: string): Promise<Buffer> {
  const result = await sealPdfWithEvidence({
    document: pdf, fields: [], marks: [], dates: {}, extraSigners: [], signingTime: new Date(),
    audit: { formId: FORM_ID, formName: 'Payment order', documentId: `${FORM_ID}-signed`, templateSha256: null, filledSha256: createHash('sha256').update(pdf).digest('hex'), recipients: [] },
  }, cert, tsaUrl ? { urls: [tsaUrl], timeoutMs: 8000 } : undefined);
  return Buffer.from(result.pdf);
}

/** Facts of a sealed file the attacks need: page 1, its content and font, the cover, the page tree, the catalog and info. */
async function facts(pdf: Uint8Array) {
  const doc = await load(pdf);
  const page = doc.getPages()[0]!;
  const resources = page.node.get(N('Resources')) as PDFDict;
  const font = (resources.get(N('Font')) as PDFDict).get(N('F1')) as PDFRef;
  const cover = (resources.get(N('XObject')) as PDFDict).get(N('Cover')) as PDFRef;
  const contents = page.node.get(N('Contents')) as PDFRef;
  const trailer = lastTrailer(pdf);
  return { doc, ctx: doc.context, page, pageRef: page.ref, font, cover, contents, root: trailer.get(N('Root')) as PDFRef, info: trailer.get(N('Info')) as PDFRef };
}

const changedContent = (s: string): Uint8Array => Buffer.from(s.replace('Amount: 100 EUR', 'Amount: 100000 EUR'), 'latin1');

async function contentText(pdf: Uint8Array, ref: PDFRef): Promise<string> {
  const doc = await load(pdf);
  const s = doc.context.lookup(ref) as PDFRawStream;
  const { decodePDFRawStream } = await import('@cantoo/pdf-lib');
  return Buffer.from(decodePDFRawStream(s).decode()).toString('latin1');
}

async function main(): Promise<void> {
  fs.mkdirSync(OUT, { recursive: true });
  const cert = serviceCertificate();
  const ca = makeTestTsaCa();
  const tsa = await startTsa(ca);
  const entries: Entry[] = [];
  const write = (file: string, bytes: Uint8Array, entry: Omit<Entry, 'file'>): void => {
    fs.writeFileSync(path.join(OUT, file), bytes);
    entries.push({ file, ...entry });
    console.log(`wrote ${file} (${bytes.length} bytes)`);
  };
  const seal1 = (level: ExpectedSignature['modification_level'], extra: Partial<ExpectedSignature> = {}): ExpectedSignature => ({ field: 'Seal', kind: 'signature', valid: true, modification_level: level, ...extra });
  const stamp1 = (level: ExpectedSignature['modification_level'], extra: Partial<ExpectedSignature> = {}): ExpectedSignature => ({ field: 'DocumentTimestamp', kind: 'document_timestamp', valid: true, modification_level: level, ...extra });
  try {
    const src = await source();
    const bb = await seal(src.pdf, cert);
    const blta = await seal(src.pdf, cert, tsa.url);
    const f = await facts(bb);
    const fl = await facts(blta);
    const original = await contentText(bb, f.contents);
    if (!original.includes('Amount: 100 EUR')) throw new Error('the sealed page 1 lost its content');

    write('honest-bb.pdf', bb, { attack: 'none: our B-B seal as sealed', verified: true, issued_by_this_service: true, intact: true, modified_after_signing: false, signatures: [seal1('none', { no_changes: true })] });
    write('honest-blta.pdf', blta, { attack: 'none: our B-LTA seal as sealed (DSS and document timestamp after the seal)', verified: true, issued_by_this_service: true, intact: true, modified_after_signing: false,
      signatures: [seal1('ltv_updates', { changes_include: [{ kind: 'validation_data' }, { kind: 'document_timestamp' }] }), stamp1('none', { no_changes: true })] });

    // Another tool's LTV update on our B-LTA, written as pyHanko writes it: an xref stream; the DSS
    // rewritten with new certificate and OCSP streams and a /VRI entry for the document timestamp; the
    // catalog's /Extensions (ESIC).
    {
      const dssRef = fl.doc.catalog.get(N('DSS')) as PDFRef;
      const dss = (fl.ctx.lookup(dssRef) as PDFDict).clone(fl.ctx);
      let n = nextNumber(blta);
      const objects = new Map<number, PDFDict | PDFRawStream | PDFArray>();
      const caStream = n++;
      const ocspStream = n++;
      objects.set(caStream, fl.ctx.flateStream(new X509Certificate(ca.caCertPem).raw));
      objects.set(ocspStream, fl.ctx.flateStream(goodOcsp(ca.caCertFile, path.join(ca.dir, 'ca.key'), ca.tsaCertFile)));
      const certs = (dss.get(N('Certs')) as PDFArray).clone(fl.ctx);
      certs.push(PDFRef.of(caStream));
      dss.set(N('Certs'), certs);
      dss.set(N('OCSPs'), fl.ctx.obj([PDFRef.of(ocspStream)]));
      const stampDict = [...fl.ctx.enumerateIndirectObjects()].map(([, o]) => o).find((o) => o instanceof PDFDict && o.get(N('SubFilter'))?.toString() === '/ETSI.RFC3161') as PDFDict;
      const key = createHash('sha1').update((stampDict.get(N('Contents')) as PDFHexString).asBytes()).digest('hex').toUpperCase();
      const vri = n++;
      objects.set(vri, fl.ctx.obj({ [key]: fl.ctx.obj({ Cert: [PDFRef.of(caStream)], OCSP: [PDFRef.of(ocspStream)], TU: PDFString.fromDate(new Date()) }) }));
      dss.set(N('VRI'), PDFRef.of(vri));
      objects.set(dssRef.objectNumber, dss);
      const catalog = fl.doc.catalog.clone(fl.ctx);
      catalog.set(N('Extensions'), fl.ctx.obj({ ESIC: { BaseVersion: N('1.7'), ExtensionLevel: 1 } }));
      objects.set(fl.root.objectNumber, catalog);
      const out = appendUpdate(blta, { objects, xrefStream: true });
      write('blta-ltv-update-xref-stream.pdf', out, { attack: 'none: an LTV update by another tool after our B-LTA (xref stream, DSS with new VRI, OCSP, /Extensions)', verified: true, issued_by_this_service: true, intact: true, modified_after_signing: false,
        signatures: [seal1('ltv_updates'), stamp1('ltv_updates', { changes_include: [{ kind: 'validation_data' }] })] });
    }

    // A document signed by another tool from the start, as pyHanko makes a PAdES B-LTA with its
    // defaults (xref streams, DSS with VRI written with the document timestamp, then the timestamp's
    // VRI), and a variant (classic tables, header 1.4 → catalog /Version, DSS without VRI in its own
    // revision): each revision after the signature is an LTV update; the file is not ours.
    {
      const foreign = foreignSigner();
      const tsaOcsp = goodOcsp(ca.caCertFile, path.join(ca.dir, 'ca.key'), ca.tsaCertFile);
      const der = (file: string): Buffer => Buffer.from(new X509Certificate(fs.readFileSync(file)).raw);
      const common = {
        signer: foreign.cert, tsa: { urls: [tsa.url], timeoutMs: 8000 },
        certs: [foreign.leafDer, foreign.caDer, der(ca.tsaCertFile), der(ca.caCertFile)], ocsps: [foreign.ocsp, tsaOcsp],
        fieldName: 'Signature1',
      };
      const sig = (extra: Partial<ExpectedSignature> = {}): ExpectedSignature => ({ field: 'Signature1', kind: 'signature', valid: true, modification_level: 'ltv_updates', ...extra });
      const stamp = (field: string, extra: Partial<ExpectedSignature> = {}): ExpectedSignature => ({ field, kind: 'document_timestamp', valid: true, modification_level: 'ltv_updates', ...extra });
      const tsField = 'Timestamp-5f0c1c2e-8a4b-4d7e-9f3a-1b2c3d4e5f60';
      write('pyhanko-blta.pdf', await pyHankoBlta(await foreignSource('xref-stream'), { ...common, vri: true, dss: 'with-timestamp', timestampFieldName: tsField }), {
        attack: "none: another signer's PAdES B-LTA made as pyHanko makes it (xref streams; signature; DSS with VRI and document timestamp in one revision; the timestamp's VRI)",
        verified: true, issued_by_this_service: false, intact: true, modified_after_signing: false,
        signatures: [sig({ changes_include: [{ kind: 'validation_data' }, { kind: 'document_timestamp' }, { kind: 'metadata' }] }), stamp(tsField, { changes_include: [{ kind: 'validation_data' }, { kind: 'metadata' }] })],
      });
      const tsField3 = 'Timestamp-3c2b1a09-f8e7-4d6c-b5a4-938271605f4e';
      write('pyhanko-blta-hybrid.pdf', await pyHankoBlta(await foreignSource('hybrid'), { ...common, vri: true, dss: 'with-timestamp', timestampFieldName: tsField3 }), {
        attack: "none: another signer's PAdES B-LTA made as pyHanko makes it on a hybrid-reference file (page and /Info in an object stream named by /XRefStm; classic-table updates)",
        verified: true, issued_by_this_service: false, intact: true, modified_after_signing: false,
        signatures: [sig({ changes_include: [{ kind: 'validation_data' }, { kind: 'document_timestamp' }, { kind: 'metadata' }] }), stamp(tsField3, { changes_include: [{ kind: 'validation_data' }, { kind: 'metadata' }] })],
      });
      const tsField2 = 'Timestamp-0d9e8f7a-6b5c-4d3e-8f2a-9b8c7d6e5f40';
      write('pyhanko-blta-classic-no-vri.pdf', await pyHankoBlta(await foreignSource('classic-1.4'), { ...common, vri: false, dss: 'separate', timestampFieldName: tsField2 }), {
        attack: "none: another signer's PAdES B-LTA made as pyHanko makes it with include_vri off and the DSS in its own revision (classic tables, header 1.4 raised by the catalog's /Version)",
        verified: true, issued_by_this_service: false, intact: true, modified_after_signing: false,
        signatures: [sig({ changes_include: [{ kind: 'validation_data' }, { kind: 'document_timestamp' }, { kind: 'metadata' }] }), stamp(tsField2, { modification_level: 'none', no_changes: true })],
      });
    }

    // pyHanko's archival timestamp on our B-LTA (update_archival_timestamp_chain): the DSS with our
    // document timestamp's VRI and a new document timestamp, /Extensions ESIC, /Info and /ID updated.
    {
      const stampRef = [...fl.ctx.enumerateIndirectObjects()].find(([, o]) => o instanceof PDFDict && o.get(N('SubFilter'))?.toString() === '/ETSI.RFC3161')![0];
      const tsaOcsp = goodOcsp(ca.caCertFile, path.join(ca.dir, 'ca.key'), ca.tsaCertFile);
      const field = 'Timestamp-7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';
      write('blta-pyhanko-archival-timestamp.pdf', await pyHankoArchivalTimestamp(blta, stampRef, {
        tsa: { urls: [tsa.url], timeoutMs: 8000 }, certs: [Buffer.from(new X509Certificate(ca.caCertPem).raw)], ocsps: [tsaOcsp], vri: true, dss: 'with-timestamp', timestampFieldName: field,
      }), {
        attack: "none: pyHanko's archival timestamp on our B-LTA (DSS with VRI, a new document timestamp, /Extensions ESIC)", verified: true, issued_by_this_service: true, intact: true, modified_after_signing: false,
        signatures: [seal1('ltv_updates', { changes_include: [{ kind: 'validation_data' }, { kind: 'document_timestamp' }] }), stamp1('ltv_updates', { changes_include: [{ kind: 'validation_data' }, { kind: 'document_timestamp' }, { kind: 'metadata' }] }),
          { field, kind: 'document_timestamp', valid: true, modification_level: 'ltv_updates', changes_include: [{ kind: 'validation_data' }, { kind: 'metadata' }] }],
      });
    }

    // /Info rewritten with the same values written differently (hex strings): no change at all.
    {
      const info = (f.ctx.lookup(f.info) as PDFDict).clone(f.ctx);
      for (const [k, v] of info.entries()) if (v instanceof PDFString || v instanceof PDFHexString) info.set(k, PDFHexString.of(Buffer.from(v.asBytes()).toString('hex')));
      write('info-reescaped.pdf', appendUpdate(bb, { objects: new Map([[f.info.objectNumber, info]]) }), { attack: 'none: /Info rewritten with the same values in other escapes', verified: true, issued_by_this_service: true, intact: true, modified_after_signing: false, signatures: [seal1('none', { no_changes: true })] });
      const changed = (f.ctx.lookup(f.info) as PDFDict).clone(f.ctx);
      changed.set(N('Title'), PDFHexString.fromText('Payment order (paid)'));
      changed.set(N('Author'), PDFString.of('Someone else'));
      write('info-rewritten.pdf', appendUpdate(bb, { objects: new Map([[f.info.objectNumber, changed]]) }), { attack: '/Info rewritten (title, author): metadata, reported, not content', verified: true, issued_by_this_service: true, intact: true, modified_after_signing: false,
        signatures: [seal1('none', { changes_include: [{ kind: 'metadata' }] })] });
    }

    // The reported attack: page 1's content stream rewritten (same object number) and listed under the DSS.
    {
      const dssRef = fl.doc.catalog.get(N('DSS')) as PDFRef;
      const dss = (fl.ctx.lookup(dssRef) as PDFDict).clone(fl.ctx);
      const certs = (dss.get(N('Certs')) as PDFArray).clone(fl.ctx);
      certs.push(fl.contents);
      dss.set(N('Certs'), certs);
      dss.set(N('VRI'), fl.ctx.obj({ AAAA: { Cert: [fl.contents] } }));
      const objects = new Map<number, PDFDict | PDFRawStream | Uint8Array>([
        [dssRef.objectNumber, dss],
        [fl.contents.objectNumber, stream(fl.ctx, changedContent(await contentText(blta, fl.contents))) as PDFRawStream],
      ]);
      write('dss-smuggled-content.pdf', appendUpdate(blta, { objects }), { attack: 'page 1 content stream rewritten (same object) and listed under /DSS /Certs and /VRI', verified: false, issued_by_this_service: true, intact: true, modified_after_signing: true,
        signatures: [seal1('other', { changes_include: [{ kind: 'page_content', page: 1 }] }), stamp1('other', { changes_include: [{ kind: 'page_content', page: 1 }] })] });
    }

    // The same content change written with an xref stream.
    write('content-change-xref-stream.pdf', appendUpdate(bb, { objects: new Map([[f.contents.objectNumber, stream(f.ctx, changedContent(original)) as PDFRawStream]]), xrefStream: true }), {
      attack: 'page 1 content rewritten in an update written with an xref stream', verified: false, issued_by_this_service: true, intact: true, modified_after_signing: true, signatures: [seal1('other', { changes_include: [{ kind: 'page_content', page: 1 }] })],
    });

    // A page added.
    {
      let n = nextNumber(bb);
      const pagesRef = f.doc.catalog.get(N('Pages')) as PDFRef;
      const pages = (f.ctx.lookup(pagesRef) as PDFDict).clone(f.ctx);
      const contentRef = n++;
      const pageRef = n++;
      const kids = (pages.get(N('Kids')) as PDFArray).clone(f.ctx);
      kids.push(PDFRef.of(pageRef));
      pages.set(N('Kids'), kids);
      pages.set(N('Count'), f.ctx.obj(kids.size()));
      const objects = new Map<number, PDFDict | PDFRawStream>([
        [pagesRef.objectNumber, pages],
        [contentRef, stream(f.ctx, 'BT /F1 14 Tf 72 700 Td (Addendum: the amount is 100000 EUR.) Tj ET') as PDFRawStream],
        [pageRef, f.ctx.obj({ Type: 'Page', Parent: pagesRef, MediaBox: [0, 0, 595, 842], Contents: PDFRef.of(contentRef), Resources: { Font: { F1: f.font } } })],
      ]);
      write('page-added.pdf', appendUpdate(bb, { objects }), { attack: 'a page added', verified: false, issued_by_this_service: true, intact: true, modified_after_signing: true, signatures: [seal1('other', { changes_include: [{ kind: 'pages' }] })] });
    }

    // An annotation added on page 1 (a FreeText note drawn over the amount).
    {
      const n = nextNumber(bb);
      const page = f.page.node.clone(f.ctx);
      const annots = page.get(N('Annots'));
      const list = annots instanceof PDFArray ? annots.clone(f.ctx) : f.ctx.obj([]);
      list.push(PDFRef.of(n));
      page.set(N('Annots'), list);
      const ap = n + 1;
      const objects = new Map<number, PDFDict | PDFRawStream>([
        [f.pageRef.objectNumber, page],
        [n, f.ctx.obj({ Type: 'Annot', Subtype: 'FreeText', Rect: [72, 655, 300, 680], Contents: PDFString.of('Amount: 100000 EUR'), DA: PDFString.of('/Helv 14 Tf 0 g'), AP: { N: PDFRef.of(ap) } })],
        [ap, stream(f.ctx, 'q 1 1 1 rg 0 0 228 25 re f Q BT /F1 14 Tf 2 8 Td (Amount: 100000 EUR) Tj ET', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 228, 25], Resources: { Font: { F1: f.font } } }) as PDFRawStream],
      ]);
      write('annotation-added.pdf', appendUpdate(bb, { objects }), { attack: 'an annotation added over the amount on page 1', verified: false, issued_by_this_service: true, intact: true, modified_after_signing: true, signatures: [seal1('annotations', { changes_include: [{ kind: 'annotation_added', page: 1 }] })] });
    }

    // A font replaced: the font object page 1 uses rewritten (same number) as another font.
    {
      const font = (f.ctx.lookup(f.font) as PDFDict).clone(f.ctx);
      font.set(N('BaseFont'), N('Courier'));
      write('font-replaced.pdf', appendUpdate(bb, { objects: new Map([[f.font.objectNumber, font]]) }), { attack: "the font of page 1 rewritten as another font", verified: false, issued_by_this_service: true, intact: true, modified_after_signing: true, signatures: [seal1('other', { changes_include: [{ kind: 'page_resources', page: 1 }] })] });
    }

    // A content change, then a valid signature by someone else.
    {
      const changed = appendUpdate(bb, { objects: new Map([[f.contents.objectNumber, stream(f.ctx, changedContent(original)) as PDFRawStream]]) });
      const signedAfter = await appendSignature(changed, malloryCertificate(), { field: 'Countersignature' });
      write('signature-after-change.pdf', signedAfter, { attack: 'page 1 content changed, then a valid signature by another signer appended', verified: false, issued_by_this_service: true, intact: true, modified_after_signing: true,
        signatures: [seal1('other', { changes_include: [{ kind: 'page_content', page: 1 }] }), { field: 'Countersignature', kind: 'signature', valid: true, modification_level: 'none', no_changes: true }] });
    }

    // Shadow attack "hide": an update of cross-reference entries only, pointing the cover's number at
    // an empty cover hidden in the signed bytes: the hidden payee shows.
    write('shadow-hide.pdf', appendUpdate(bb, { objects: new Map(), pointAt: new Map([[f.cover.objectNumber, shadowAt(bb, SHADOW_HIDE)]]) }), {
      attack: 'shadow attack, hide: an xref-only update points the cover XObject at an empty one hidden in the signed bytes', verified: false, issued_by_this_service: true, intact: true, modified_after_signing: true,
      signatures: [seal1('other', { changes_include: [{ kind: 'page_resources', page: 1 }] })],
    });
    // Shadow attack "hide-and-replace": an xref-only update points page 1's content at the shadow content in the signed bytes.
    write('shadow-hide-and-replace.pdf', appendUpdate(bb, { objects: new Map(), pointAt: new Map([[f.contents.objectNumber, shadowAt(bb, SHADOW_REPLACE)]]) }), {
      attack: "shadow attack, hide-and-replace: an xref-only update points page 1's content at a shadow content stream hidden in the signed bytes", verified: false, issued_by_this_service: true, intact: true, modified_after_signing: true,
      signatures: [seal1('other', { changes_include: [{ kind: 'page_content', page: 1 }] })],
    });

    // Form fields (the product's seal flattens them, so this document is signed by our own CMS code
    // without flattening): "amount" filled, "note" empty and lying over the printed total.
    {
      const doc = await PDFDocument.create();
      doc.setTitle('Order form');
      const page = doc.addPage([595, 842]);
      const font = await doc.embedFont(StandardFonts.Helvetica);
      page.drawText('Order form', { x: 72, y: 760, size: 20, font });
      page.drawText('Total due: 100 EUR', { x: 72, y: 600, size: 14, font });
      const form = doc.getForm();
      const amount = form.createTextField('amount');
      amount.setText('100');
      amount.addToPage(page, { x: 72, y: 680, width: 200, height: 24, font });
      const note = form.createTextField('note');
      note.addToPage(page, { x: 70, y: 594, width: 220, height: 24, borderWidth: 0, font, backgroundColor: undefined, borderColor: undefined, textColor: rgb(0, 0, 0) });
      const info = doc.context.lookup(doc.context.trailerInfo.Info) as PDFDict;
      info.set(N(FORM_ID_KEY), PDFHexString.fromText(FORM_ID));
      const unsigned = await doc.save({ useObjectStreams: false });
      const formBase = await appendSignature(unsigned, cert, { field: 'Seal' });
      const ff = await load(formBase);
      const fieldsOf = ff.getForm().getFields();
      const refOf = (name: string): PDFRef => fieldsOf.find((x) => x.getName() === name)!.ref;
      const fieldUpdate = (name: string, value: string, appearance: string): Buffer => {
        // pdf-lib makes a field with one widget kid: the value goes on the field, the appearance on the widget.
        const ref = refOf(name);
        const ctx = ff.context;
        const field = (ctx.lookup(ref) as PDFDict).clone(ctx);
        field.set(N('V'), PDFString.of(value));
        const widgetRef = (field.get(N('Kids')) as PDFArray).get(0) as PDFRef;
        const widget = (ctx.lookup(widgetRef) as PDFDict).clone(ctx);
        const n = nextNumber(formBase);
        const rect = (widget.get(N('Rect')) as PDFArray).asArray().map((x) => Number(x.toString()));
        widget.set(N('AP'), ctx.obj({ N: PDFRef.of(n) }));
        const dr = ff.getForm().acroForm.dict.get(N('DR'));
        const ap = stream(ctx, appearance, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, rect[2]! - rect[0]!, rect[3]! - rect[1]!], ...(dr ? { Resources: dr } : {}) }) as PDFRawStream;
        return appendUpdate(formBase, { objects: new Map<number, PDFDict | PDFRawStream>([[ref.objectNumber, field], [widgetRef.objectNumber, widget], [n, ap]]) });
      };
      const formSeal = (level: ExpectedSignature['modification_level'], kinds: { kind: string; page?: number }[]): ExpectedSignature => ({ field: 'Seal', kind: 'signature', valid: true, modification_level: level, changes_include: kinds });
      write('form-field-value-changed.pdf', fieldUpdate('amount', '100000', '/Tx BMC BT /Helv 12 Tf 2 7 Td (100000) Tj ET EMC'), {
        attack: 'a form field value changed (100 → 100000)', verified: false, issued_by_this_service: true, intact: true, modified_after_signing: true, signatures: [formSeal('form_filling', [{ kind: 'field_value', page: 1 }])],
      });
      write('shadow-replace.pdf', fieldUpdate('note', 'Total due: 100000 EUR', '/Tx BMC q 1 1 1 rg 0 0 220 24 re f Q BT /Helv 14 Tf 2 7 Td (Total due: 100000 EUR) Tj ET EMC'), {
        attack: 'shadow attack, replace (overlay): an empty field lying over the printed total filled with an opaque new total', verified: false, issued_by_this_service: true, intact: true, modified_after_signing: true,
        signatures: [formSeal('form_filling', [{ kind: 'field_value', page: 1 }])],
      });
    }

    // Sealed with a certificate its CA revoked; the validation update carries the CA's OCSP answer.
    {
      const revoked = revokedCertificate();
      const sealed = await seal(src.pdf, revoked.cert);
      const doc = await load(sealed);
      let n = nextNumber(sealed);
      const caRef = n++;
      const ocspRef = n++;
      const dssRef = n++;
      const catalog = doc.catalog.clone(doc.context);
      catalog.set(N('DSS'), PDFRef.of(dssRef));
      const root = lastTrailer(sealed).get(N('Root')) as PDFRef;
      const objects = new Map<number, PDFDict | PDFRawStream>([
        [caRef, doc.context.flateStream(revoked.caDer)],
        [ocspRef, doc.context.flateStream(revoked.ocsp)],
        [dssRef, doc.context.obj({ Certs: [PDFRef.of(caRef)], OCSPs: [PDFRef.of(ocspRef)] })],
        [root.objectNumber, catalog],
      ]);
      write('revoked-signer.pdf', appendUpdate(sealed, { objects }), {
        attack: "sealed with a certificate the file's own OCSP response says is revoked", verified: false, issued_by_this_service: false, intact: true, modified_after_signing: false,
        signatures: [{ field: 'Seal', kind: 'signature', valid: false, modification_level: 'ltv_updates', reason_matches: 'revoked', changes_include: [{ kind: 'validation_data' }] }],
      });
    }

    const manifest: CorpusManifest = {
      description: 'Attack corpus for the verifier (issue 34). Made by scripts/make-attack-corpus.ts; checked by test/evidence/verify-attacks.test.ts. The service certificate is service-seal.p12 (a test key, nothing else).',
      service_certificate: { p12: 'service-seal.p12', password: P12_PASSWORD },
      form_id: FORM_ID,
      files: entries,
    };
    fs.writeFileSync(path.join(OUT, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  } finally {
    await tsa.close();
    ca.remove();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
