// The sealed PDF, judged by independent tools: pdfsig (poppler) for the PAdES signature, qpdf for
// structure and the form, pdftotext for what a reader sees, pdftoppm for where the signatures
// landed, and pkijs for the CMS inside. Inputs are real fixtures rendered by the fill stage, and a
// flat two-signer template.
import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify, X509Certificate } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { degrees, PDFDict, PDFDocument, PDFName, rgb, StandardFonts } from '@cantoo/pdf-lib';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import {
  createPdfInspector, loadSigningCertificate, sealPdf,
  type AuditTrail, type FieldDef, type FieldValue, type PdfInspector, type SealRequest, type SigningCertificate,
} from '../../src/pdf/index.js';
import { createPdfRenderer } from '../../src/pdf/fill/index.js';
import { FIXTURES, pdfToText, qpdfCheck, readFixture } from './support/fixtures.js';

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const dirs: string[] = [];
const tempDir = (): string => { const d = mkdtempSync(join(tmpdir(), 'formsign-seal-')); dirs.push(d); return d; };

function run(cmd: string, args: string[], pdf: Uint8Array): { status: number | null; out: string } {
  const file = join(tempDir(), 'doc.pdf');
  writeFileSync(file, pdf);
  const r = spawnSync(cmd, [...args, file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A PNG of a blue squiggle on transparency, like a drawn signature (RGBA, 8 bit). */
function signaturePng(w = 240, h = 80): Uint8Array {
  const raw = Buffer.alloc((w * 4 + 1) * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const on = Math.abs(y - h / 2 - (h / 4) * Math.sin(x / 12)) < 3;
      if (on) raw.set([20, 40, 160, 255], y * (w * 4 + 1) + 1 + x * 4);
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
  const crc = (b: Buffer) => { let c = 0xffffffff; for (const v of b) c = crcTable[(c ^ v) & 255]! ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4); sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 6;
  return new Uint8Array(Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
}

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
function auditFor(template: Uint8Array, filled: Uint8Array, names: string[]): AuditTrail {
  return {
    formId: 'frm_seal_test_1', formName: 'Apartment lease', documentId: 'frm_seal_test_1-signed',
    templateSha256: sha256(template), filledSha256: sha256(filled),
    recipients: names.map((name, i) => ({
      name, email: i === 1 ? null : `signer${i + 1}@example.com`, phone: i === 1 ? '+15551230000' : null, channel: i === 1 ? 'sms' as const : 'email' as const,
      signer: i + 1, sentAt: '2026-11-20T09:00:00.000Z', viewedAt: '2026-11-20T10:15:00.000Z', signedAt: '2026-11-20T10:20:30.000Z',
      viewedIp: `198.51.100.${i + 10}`, viewedUserAgent: UA, signedIp: `198.51.100.${i + 10}`, signedUserAgent: UA,
    })),
  };
}

/** A flat (no AcroForm) one-page template with fields for two signers, given as FieldDefs. */
async function twoSignerTemplate(): Promise<{ pdf: Uint8Array; fields: FieldDef[] }> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Two-party agreement', { x: 72, y: 720, size: 18, font });
  const fields: FieldDef[] = [
    { name: 'tenant_name', type: 'text', required: true, signer: 1, page: 1, x: 72, y: 150, width: 220, height: 20 },
    { name: 'tenant_signature', type: 'signature', required: true, signer: 1, page: 1, x: 72, y: 200, width: 220, height: 60 },
    { name: 'tenant_date', type: 'date_signed', required: true, signer: 1, page: 1, x: 72, y: 270, width: 120, height: 18 },
    { name: 'landlord_name', type: 'text', required: true, signer: 2, page: 1, x: 330, y: 150, width: 220, height: 20 },
    { name: 'landlord_signature', type: 'signature', required: true, signer: 2, page: 1, x: 330, y: 200, width: 220, height: 60 },
    { name: 'landlord_initials', type: 'initials', required: true, signer: 2, page: 1, x: 330, y: 300, width: 60, height: 40 },
  ];
  for (const f of fields) page.drawRectangle({ x: f.x, y: 792 - f.y - f.height, width: f.width, height: f.height, borderColor: rgb(0.7, 0.7, 0.7), borderWidth: 0.5 });
  return { pdf: await doc.save(), fields };
}

/** RGB pixels of one page at 144 dpi (2 px = 1 pt), via pdftoppm's PPM output. */
function pagePixels(pdf: Uint8Array, page: number): { width: number; height: number; at(x: number, y: number): [number, number, number] } {
  const dir = tempDir();
  writeFileSync(join(dir, 'p.pdf'), pdf);
  const r = spawnSync('pdftoppm', ['-r', '144', '-f', String(page), '-l', String(page), join(dir, 'p.pdf')], { maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, String(r.stderr));
  const ppm = r.stdout;
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'));
  assert.ok(header, 'pdftoppm wrote a PPM');
  const [width, height, start] = [Number(header[1]), Number(header[2]), header[0].length];
  return { width, height, at: (x, y) => { const o = start + (y * width + x) * 3; return [ppm[o]!, ppm[o + 1]!, ppm[o + 2]!]; } };
}

/** Pixels of signature ink (the PNG's blue) inside a field's rectangle, at 144 dpi. */
function inkIn(pdf: Uint8Array, f: FieldDef): number {
  const px = pagePixels(pdf, f.page);
  let n = 0;
  for (let y = Math.ceil(f.y * 2); y < Math.floor((f.y + f.height) * 2); y++) {
    for (let x = Math.ceil(f.x * 2); x < Math.floor((f.x + f.width) * 2); x++) {
      const [r, g, b] = px.at(x, y);
      if (b > 100 && b - r > 60 && b - g > 40) n++;
    }
  }
  return n;
}

async function widgetCount(pdf: Uint8Array): Promise<number> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().reduce((n, page) => n + (page.node.Annots()?.asArray() ?? [])
    .filter((a) => doc.context.lookup(a, PDFDict).get(PDFName.of('Subtype')) === PDFName.of('Widget')).length, 0);
}

interface Signed { contents: Buffer; byteRange: [number, number, number, number] }
function signatureOf(pdf: Uint8Array): Signed {
  const text = Buffer.from(pdf).toString('latin1');
  const m = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text);
  assert.ok(m, 'a /ByteRange');
  const byteRange = [1, 2, 3, 4].map((i) => Number(m[i])) as Signed['byteRange'];
  const raw = Buffer.from(text.slice(byteRange[1] + 1, byteRange[2] - 1), 'hex');
  // Cut at the DER's own length, not at trailing zeros: the signature may end in a zero byte (1 in 256).
  const lengthBytes = raw[1]! & 0x7f;
  const length = raw[1]! < 0x80 ? 2 + raw[1]! : 2 + lengthBytes + raw.subarray(2, 2 + lengthBytes).reduce((n, b) => n * 256 + b, 0);
  return { contents: raw.subarray(0, length), byteRange };
}

function assertValid(pdf: Uint8Array): string {
  const { out } = run('pdfsig', [], pdf);
  assert.match(out, /Signature is Valid\./, out);
  assert.match(out, /Total document signed/, out);
  assert.match(out, /ETSI\.CAdES\.detached/, out);
  assert.match(out, /Signing Hash Algorithm: SHA-256/, out);
  return out;
}

let inspector: PdfInspector;
let cert: SigningCertificate;
const renderer = createPdfRenderer();
const png = signaturePng();
const initialsPng = signaturePng(90, 60);

before(() => {
  inspector = createPdfInspector({ timeoutMs: 20_000, maxOldGenerationSizeMb: 256 });
  cert = loadSigningCertificate({ dataDir: tempDir(), serviceName: 'Formsign Test' });
});
after(async () => {
  await inspector.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('sealPdf on a real AcroForm fixture', () => {
  let template: { pdf: Uint8Array; fields: FieldDef[] };
  let filled: Uint8Array;
  let sealed: Uint8Array;
  let req: SealRequest;
  let values: Record<string, FieldValue>;
  const names = ['Ada Lovelace', 'Ελένη Παπαδοπούλου', '김민준'];

  before(async () => {
    const t = await inspector.inspect(readFixture('interactive_form_example_indesign.pdf'));
    template = { pdf: t.pdf, fields: t.fields };
    values = {};
    for (const f of t.fields) {
      if (f.type === 'text') values[f.name] = `${f.name.replace(/\W/g, '').slice(0, 6)} Łódź 日本`;
      if (f.type === 'checkbox') values[f.name] = true;
    }
    values[t.fields.find((f) => f.type === 'text')!.name] = 'Ada Lovelace';
    filled = await renderer.render(t.pdf, t.fields, values);
    const signature = t.fields.find((f) => f.type === 'signature')!;
    req = {
      document: filled, fields: t.fields, marks: [{ field: signature.name, png }], dates: {},
      extraSigners: [{ name: names[2]!, signer: 3, png, signedAt: '2026-11-20T10:20:30.000Z' }],
      audit: auditFor(readFixture('interactive_form_example_indesign.pdf'), filled, names),
      signingTime: new Date('2026-11-20T10:21:00.000Z'),
    };
    sealed = await sealPdf(req, cert);
  });

  it('carries a valid PAdES signature over the whole document', () => {
    const out = assertValid(sealed);
    assert.match(out, /Formsign Test document signing/);
    assert.match(out, /Signing Time: Nov 20 2026 10:21:00/);
  });

  it('is invalid after one changed byte anywhere in the signed range', () => {
    const { byteRange } = signatureOf(sealed);
    const positions = [
      Buffer.from(sealed).indexOf('stream', 0, 'latin1') + 20, // in the first content stream
      Math.floor(byteRange[1] / 2),
      byteRange[2] + Math.floor(byteRange[3] / 3), // after the signature's /Contents
      sealed.length - 30, // in the trailer / xref
    ];
    for (const at of positions) {
      const copy = new Uint8Array(sealed);
      copy[at] = copy[at]! ^ 0x01;
      const { out } = run('pdfsig', [], copy);
      assert.match(out, /Signature Validation: /, `byte ${at}: ${out}`);
      assert.doesNotMatch(out, /Signature is Valid\./, `byte ${at} changed, yet valid`);
    }
  });

  it('passes qpdf --check', () => {
    const { status, output } = qpdfCheck(sealed);
    assert.equal(status, 0, output);
    assert.match(output, /No syntax or stream encoding errors/);
  });

  it('is flattened: the seal is the only form field left, no widget beside it', async () => {
    const json = JSON.parse(run('qpdf', ['--json', '--json-key=acroform'], sealed).out) as { acroform: { fields: Array<{ fieldtype: string; fullname: string }> } };
    assert.deepEqual(json.acroform.fields.map((f) => [f.fieldtype, f.fullname]), [['/Sig', 'Seal']]);
    const input = JSON.parse(run('qpdf', ['--json', '--json-key=acroform'], filled).out) as { acroform: { fields: unknown[] } };
    assert.ok(input.acroform.fields.length > 10, 'the input had form fields');
    assert.equal(await widgetCount(sealed), 1);
    assert.ok(await widgetCount(filled) > 10);
  });

  it('shows the values, the extra signer and the audit trail as text', () => {
    const text = pdfToText(sealed);
    assert.match(text, /Ada Lovelace/);
    assert.match(text, /Łódź 日本/);
    assert.match(text, /Additional signatures/);
    assert.match(text, /김민준/);
    assert.match(text, /Audit trail/);
    for (const s of ['frm_seal_test_1', 'Apartment lease', 'frm_seal_test_1-signed', 'Ελένη Παπαδοπούλου', 'signer1@example.com', '+15551230000',
      '198.51.100.10', '198.51.100.11', '2026-11-20 09:00:00 UTC', '2026-11-20 10:15:00 UTC', '2026-11-20 10:20:30 UTC', 'Chrome/131.0.0.0']) {
      assert.ok(text.includes(s), `the audit trail shows ${s}`);
    }
  });

  it('states the SHA-256 of the real template file and of the filled document', () => {
    const text = pdfToText(sealed).replace(/\s+/g, ' ');
    assert.ok(text.includes(`Original template SHA-256 ${sha256(readFixture('interactive_form_example_indesign.pdf'))}`), text);
    assert.ok(text.includes(`Final document SHA-256 ${sha256(filled)}`), text);
  });

  it('refuses an audit whose filled-document hash is not the document being sealed', async () => {
    await assert.rejects(sealPdf({ ...req, audit: { ...req.audit, filledSha256: sha256(template.pdf) } }, cert), /filledSha256/);
  });

  it('draws the signature inside its field', () => {
    const signature = template.fields.find((f) => f.type === 'signature')!;
    assert.equal(inkIn(filled, signature), 0, 'no ink before sealing');
    assert.ok(inkIn(sealed, signature) > 40, 'signature ink inside the field after sealing');
  });

  it('signs a CMS with contentType, messageDigest and signingCertificateV2, verifiable with the certificate', () => {
    const { contents, byteRange } = signatureOf(sealed);
    const info = pkijs.ContentInfo.fromBER(contents);
    assert.equal(info.contentType, '1.2.840.113549.1.7.2');
    const sd = new pkijs.SignedData({ schema: info.content });
    assert.equal(sd.encapContentInfo.eContent, undefined, 'detached');
    const signer = sd.signerInfos[0]!;
    assert.equal(signer.digestAlgorithm.algorithmId, '2.16.840.1.101.3.4.2.1');
    const attrs = new Map(signer.signedAttrs!.attributes.map((a) => [a.type, a.values[0]]));
    assert.deepEqual([...attrs.keys()].sort(), ['1.2.840.113549.1.9.16.2.47', '1.2.840.113549.1.9.3', '1.2.840.113549.1.9.4']);
    assert.equal((attrs.get('1.2.840.113549.1.9.3') as asn1js.ObjectIdentifier).valueBlock.toString(), '1.2.840.113549.1.7.1');
    const signedBytes = Buffer.concat([sealed.subarray(byteRange[0], byteRange[0] + byteRange[1]), sealed.subarray(byteRange[2], byteRange[2] + byteRange[3])]);
    const digest = Buffer.from((attrs.get('1.2.840.113549.1.9.4') as asn1js.OctetString).valueBlock.valueHexView);
    assert.equal(digest.toString('hex'), sha256(signedBytes));
    // SigningCertificateV2 → certs → ESSCertIDv2 { certHash (SHA-256 default), issuerSerial }
    const essCertId = ((attrs.get('1.2.840.113549.1.9.16.2.47') as asn1js.Sequence).valueBlock.value[0] as asn1js.Sequence).valueBlock.value[0] as asn1js.Sequence;
    const certHash = Buffer.from((essCertId.valueBlock.value[0] as asn1js.OctetString).valueBlock.valueHexView);
    assert.equal(certHash.toString('hex'), sha256(cert.certificateDer));
    const serial = (essCertId.valueBlock.value[1] as asn1js.Sequence).valueBlock.value[1] as asn1js.Integer;
    assert.equal(Buffer.from(serial.valueBlock.valueHexView).toString('hex').replace(/^00/, '').toUpperCase(), new X509Certificate(cert.certificateDer).serialNumber.replace(/^00/, ''));
    // The signature is over the DER SET of the signed attributes.
    const setDer = Buffer.from(signer.signedAttrs!.toSchema().toBER());
    setDer[0] = 0x31;
    const embedded = Buffer.from((sd.certificates![0] as pkijs.Certificate).toSchema().toBER());
    assert.deepEqual(embedded, cert.certificateDer);
    assert.ok(verify('sha256', setDer, createPublicKey(new X509Certificate(embedded).publicKey.export({ format: 'pem', type: 'spki' })), Buffer.from(signer.signature.valueBlock.valueHexView)));
    assert.equal(signer.signedAttrs!.attributes.some((a) => a.type === '1.2.840.113549.1.9.5'), false, 'no signing-time attribute (PAdES: /M)');
  });

  // The seal job: the template filled in the seal's own parse (issue 36), no filled file between.
  describe('filling the template in the same parse (one PDF job)', () => {
    let oneJob: Uint8Array;
    before(async () => {
      oneJob = await sealPdf({ ...req, document: template.pdf, values, audit: { ...req.audit, filledSha256: null } }, cert);
    });

    it('is as valid and clean as the seal of the rendered document', async () => {
      assertValid(oneJob);
      const { status, output } = qpdfCheck(oneJob);
      assert.equal(status, 0, output);
      assert.equal(await widgetCount(oneJob), 1, 'flattened: the seal alone');
    });

    it('draws every page of the form as the two-step seal does, pixel for pixel', async () => {
      const pages = (await PDFDocument.load(template.pdf)).getPageCount();
      for (let page = 1; page <= pages; page++) {
        const [a, b] = [pagePixels(sealed, page), pagePixels(oneJob, page)];
        assert.deepEqual([b.width, b.height], [a.width, a.height]);
        let differ = 0;
        for (let y = 0; y < a.height; y += 2) for (let x = 0; x < a.width; x += 2) if (a.at(x, y).join() !== b.at(x, y).join()) differ++;
        assert.equal(differ, 0, `page ${page}: ${differ} pixels differ`);
      }
      const signature = template.fields.find((f) => f.type === 'signature')!;
      assert.ok(inkIn(oneJob, signature) > 40, 'signature ink inside the field');
    });

    it('states the template\'s SHA-256 and no filled-document hash: no filled file exists', () => {
      const text = pdfToText(oneJob).replace(/\s+/g, ' ');
      assert.ok(text.includes(`Original template SHA-256 ${sha256(readFixture('interactive_form_example_indesign.pdf'))}`), text);
      assert.doesNotMatch(text, /Final document SHA-256/);
      assert.doesNotMatch(text, /not recorded/);
      for (const s of ['Ada Lovelace', 'Łódź 日本', 'Additional signatures', '김민준', 'Audit trail']) assert.ok(text.includes(s), s);
    });

    it('refuses a filled-document hash in the audit: it could be of nothing', async () => {
      await assert.rejects(sealPdf({ ...req, document: template.pdf, values }, cert), /filledSha256 must be null/);
    });
  });

  it('records the signing time in /M', () => {
    assert.match(Buffer.from(sealed).toString('latin1'), /\/M \(D:20261120102100Z?/);
  });
});

describe('sealPdf on a flat two-signer template', () => {
  let fields: FieldDef[];
  let filled: Uint8Array;
  let sealed: Uint8Array;

  before(async () => {
    const t = await twoSignerTemplate();
    fields = t.fields;
    filled = await renderer.render(t.pdf, fields, { tenant_name: 'Grace Hopper', landlord_name: 'Ōtani Shōhei 大谷翔平' });
    sealed = await sealPdf({
      document: filled, fields,
      marks: [{ field: 'tenant_signature', png }, { field: 'landlord_signature', png }, { field: 'landlord_initials', png: initialsPng }],
      dates: { tenant_date: '2026-11-20' }, extraSigners: [],
      audit: auditFor(t.pdf, filled, ['Grace Hopper', 'Ōtani Shōhei 大谷翔平']),
      signingTime: new Date('2026-11-20T11:00:00.000Z'),
    }, cert);
  });

  it('is valid, clean, and shows values, the signing date and the audit trail', () => {
    assertValid(sealed);
    assert.equal(qpdfCheck(sealed).status, 0);
    const text = pdfToText(sealed);
    for (const s of ['Grace Hopper', 'Ōtani Shōhei 大谷翔平', '2026-11-20', 'Audit trail', 'Signer 2']) assert.ok(text.includes(s), s);
    assert.doesNotMatch(text, /Additional signatures/);
  });

  it('draws each signature and the initials in their own rectangle, aspect kept', () => {
    for (const name of ['tenant_signature', 'landlord_signature', 'landlord_initials']) {
      const f = fields.find((x) => x.name === name)!;
      assert.equal(inkIn(filled, f), 0, `${name}: blank before`);
      assert.ok(inkIn(sealed, f) > 300, `${name}: inked after`);
    }
    // Nothing spills between the two signature boxes.
    assert.equal(inkIn(sealed, { ...fields[1]!, x: 300, width: 25 }), 0);
  });

  it('refuses marks and dates for fields that are not signature, initials or date_signed fields', async () => {
    const base: SealRequest = { document: filled, fields, marks: [], dates: {}, extraSigners: [], audit: auditFor(filled, filled, ['A']), signingTime: new Date() };
    await assert.rejects(sealPdf({ ...base, marks: [{ field: 'tenant_name', png }] }, cert), /not a signature or initials field/);
    await assert.rejects(sealPdf({ ...base, dates: { tenant_signature: '2026-11-20' } }, cert), /not a date_signed field/);
    await assert.rejects(sealPdf({ ...base, dates: { tenant_date: '20.11.2026' } }, cert), /YYYY-MM-DD/);
  });
});

describe('sealPdf edge cases', () => {
  it('draws marks upright inside their (display) rectangles on a rotated page', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]).setRotation(degrees(90));
    const pdf = await doc.save();
    // Top-left display coordinates: the page shows 792 wide, 612 tall.
    const sig: FieldDef = { name: 'sig', type: 'signature', required: true, signer: 1, page: 1, x: 500, y: 80, width: 220, height: 70 };
    const date: FieldDef = { name: 'when', type: 'date_signed', required: true, signer: 1, page: 1, x: 500, y: 200, width: 120, height: 20 };
    const filled = await renderer.render(pdf, [sig, date], {});
    const sealed = await sealPdf({ document: filled, fields: [sig, date], marks: [{ field: 'sig', png }], dates: { when: '2026-11-21' }, extraSigners: [],
      audit: auditFor(pdf, filled, ['Rotated Reader']), signingTime: new Date('2026-11-21T08:00:00Z') }, cert);
    assertValid(sealed);
    const px = pagePixels(sealed, 1);
    assert.equal(px.width, 792 * 2);
    assert.ok(inkIn(sealed, sig) > 300, 'the signature is inside its rectangle as displayed');
    // Turned the wrong way it would reach below or left of its box.
    assert.equal(inkIn(sealed, { ...sig, y: sig.y + sig.height + 1, height: 200 }) + inkIn(sealed, { ...sig, x: sig.x - 200, width: 199 }), 0);
    assert.match(pdfToText(sealed, '-f', '1', '-l', '1'), /2026-11-21/);
  });

  it('runs the audit trail over several pages when there are many recipients', async () => {
    const { pdf, fields } = await twoSignerTemplate();
    const filled = await renderer.render(pdf, fields, {});
    const names = Array.from({ length: 14 }, (_, i) => `Recipient Number ${i + 1}`);
    const sealed = await sealPdf({ document: filled, fields, marks: [], dates: {}, extraSigners: [], audit: auditFor(pdf, filled, names), signingTime: new Date() }, cert);
    assertValid(sealed);
    assert.equal(qpdfCheck(sealed).status, 0);
    const pages = (await PDFDocument.load(sealed)).getPageCount();
    assert.ok(pages >= 3, `audit pages follow the document (${pages} pages)`);
    const text = pdfToText(sealed);
    for (const n of names) assert.ok(text.includes(n), n);
    assert.ok(text.includes(`Audit trail ${pages - 1} of ${pages - 1}`), 'numbered audit pages');
  });
});

describe('sealPdf on every fixture', () => {
  for (const fx of FIXTURES) {
    it(`${fx.file}: flattened, valid, clean`, async () => {
      const t = await inspector.inspect(readFixture(fx.file));
      const values: Record<string, FieldValue> = {};
      for (const f of t.fields) if (f.type === 'text') values[f.name] = 'Zoë 東京';
      const filled = await renderer.render(t.pdf, t.fields, values);
      const marks = t.fields.filter((f) => f.type === 'signature').map((f) => ({ field: f.name, png }));
      const sealed = await sealPdf({ document: filled, fields: t.fields, marks, dates: {}, extraSigners: [], audit: auditFor(readFixture(fx.file), filled, ['Zoë Fixture']), signingTime: new Date() }, cert);
      assertValid(sealed);
      const { status, output } = qpdfCheck(sealed);
      assert.equal(status, 0, output);
      assert.equal(await widgetCount(sealed), 1);
      assert.equal((await PDFDocument.load(sealed)).getPageCount(), fx.pages + 1);
      if (t.fields.some((f) => f.type === 'text')) assert.match(pdfToText(sealed), /Zoë 東京/);
    });
  }
});
