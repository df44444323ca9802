// Builders for PDFs the inspector must refuse. Each is made here, in memory, in milliseconds.
import { randomBytes } from 'node:crypto';
import { constants, deflateRawSync } from 'node:zlib';
import { PDFDocument, PDFHexString, PDFName, PDFNumber, PDFString, StandardFonts, type PDFRef } from '@cantoo/pdf-lib';

const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');

/** A FlateDecode object stream of `gib` GiB of zeros in about 1 MiB per GiB. */
export function decompressionBomb(gib: number): Uint8Array {
  // Sync-flushed deflate blocks are byte-aligned and only refer back to zeros, so one compressed
  // MiB of zeros can be repeated to build an arbitrarily large stream without compressing it.
  const block = deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const stream = Buffer.concat([
    Buffer.from([0x78, 0x9c]),
    ...Array.from({ length: gib * 1024 }, () => block),
    Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff, 0, 0, 0, 0]),
  ]);
  return Buffer.concat([
    ascii('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n'),
    ascii('2 0 obj\n<< /Type /Pages /Kids [4 0 R] /Count 1 >>\nendobj\n'),
    ascii('4 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n'),
    ascii(`3 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${stream.length} >>\nstream\n`),
    stream,
    ascii('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R /Size 5 >>\n%%EOF\n'),
  ]);
}

/** An array nested `depth` levels deep: a stack-overflow attempt on recursive parsers. */
export function deeplyNested(depth: number): Uint8Array {
  return ascii(`%PDF-1.7\n1 0 obj\n${'['.repeat(depth)}${']'.repeat(depth)}\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`);
}

/** Millions of tiny objects: costs the parser heap and time rather than decoded bytes. */
export function heapHog(numbers: number): Uint8Array {
  return ascii(`%PDF-1.7\n1 0 obj\n[${'0 '.repeat(numbers)}]\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`);
}

export const randomNoise = (size: number): Uint8Array => new Uint8Array(randomBytes(size));

export function headerThenGarbage(size: number): Uint8Array {
  return Buffer.concat([ascii('%PDF-1.7\n'), randomBytes(size), ascii('\n%%EOF\n')]);
}

function signatureDictionary(doc: PDFDocument): PDFRef {
  return doc.context.register(doc.context.obj({
    Type: 'Sig', Filter: 'Adobe.PPKLite', SubFilter: 'adbe.pkcs7.detached',
    ByteRange: [0, 100, 200, 300], Contents: PDFHexString.of('00'.repeat(64)),
    M: PDFString.of('D:20240101000000Z'),
  }));
}

/** A one-page PDF whose signature field holds a (fake) signature value. */
export async function signedPdf(mode: 'sig-value' | 'docmdp'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText('Signed contract', { x: 72, y: 700, font: await doc.embedFont(StandardFonts.Helvetica) });
  const sig = signatureDictionary(doc);
  const field = doc.context.register(doc.context.obj({
    Type: 'Annot', Subtype: 'Widget', FT: 'Sig', T: PDFString.of('Signature1'), F: 4,
    Rect: [72, 100, 272, 150], P: page.ref, ...(mode === 'sig-value' ? { V: sig } : {}),
  }));
  page.node.addAnnot(field);
  const form = doc.getForm();
  form.acroForm.addField(field);
  form.acroForm.dict.set(PDFName.of('SigFlags'), PDFNumber.of(3));
  if (mode === 'docmdp') doc.catalog.set(PDFName.of('Perms'), doc.context.obj({ DocMDP: sig }));
  return doc.save();
}
