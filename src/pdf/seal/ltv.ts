// Long-term validation (PAdES B-LT, B-LTA): after the signature, one incremental update appends a
// Document Security Store (/DSS: the certificates of the signing chain and of the timestamp's TSA,
// and the OCSP responses and CRLs that could be fetched for them) and a document timestamp
// (/DocTimeStamp, ETSI.RFC3161) whose token covers every byte before it, DSS included. A verifier
// years later then needs nothing from us or from a CA that may be gone: the validation data is in
// the file and the document timestamp proves when it was added. The signed revision is left as it
// is, byte for byte: its signature stays valid.
import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFHexString, PDFInvalidObject, PDFName, PDFRef, type PDFDocument, type PDFObject, type PDFPage } from '@cantoo/pdf-lib';
import { ascii, BYTE_RANGE_PLACEHOLDER } from './pades.js';

export interface ValidationData {
  /** DER certificates, each once. */
  readonly certificates: readonly Uint8Array[];
  /** DER OCSPResponse bodies and CRLs. */
  readonly ocsps: readonly Uint8Array[];
  readonly crls: readonly Uint8Array[];
}

/** Given the SHA-256 of the bytes the document timestamp covers, its TimeStampToken (DER). */
export type DocumentTimestamper = (digest: Buffer) => Promise<Uint8Array>;

/**
 * `signed` is `doc` as saved and signed (pades.ts), without object streams; `doc` still holds its
 * objects. Returns `signed` with the DSS and, when `timestamper` is given, a document timestamp of
 * `tokenRoom` bytes at most appended as one incremental update.
 */
export async function appendValidationData(
  doc: PDFDocument, signed: Uint8Array, page: PDFPage, data: ValidationData, timestamper: DocumentTimestamper | undefined, tokenRoom: number,
): Promise<Uint8Array> {
  const ctx = doc.context;
  const root = ctx.trailerInfo.Root;
  if (!(root instanceof PDFRef)) throw new Error('The document catalog is not an indirect object');
  const changed = new Set<PDFRef>([root, ...addToDss(doc, data)]);
  if (timestamper) {
    const sig = ctx.register(ctx.obj({
      Type: 'DocTimeStamp',
      Filter: 'Adobe.PPKLite',
      SubFilter: 'ETSI.RFC3161',
      ByteRange: PDFInvalidObject.of(ascii(BYTE_RANGE_PLACEHOLDER)),
      Contents: PDFHexString.of('0'.repeat(tokenRoom * 2)),
    }));
    const widget = ctx.register(ctx.obj({
      Type: 'Annot', Subtype: 'Widget', FT: 'Sig', T: PDFHexString.fromText('DocumentTimestamp'), V: sig, F: 132, Rect: [0, 0, 0, 0], P: page.ref,
    }));
    const annots = page.node.get(PDFName.of('Annots'));
    page.node.addAnnot(widget);
    changed.add(annots instanceof PDFRef ? annots : page.ref);
    // pades.ts set the AcroForm as a direct dictionary of the catalog, which is rewritten anyway.
    const fields = doc.catalog.AcroForm()?.get(PDFName.of('Fields'));
    if (!(fields instanceof PDFArray)) throw new Error('The signed document has no AcroForm fields');
    fields.push(widget);
  }
  const update = serializeUpdate(doc, signed, [...changed, ...newRefs(doc, signed)]);
  const pdf = new Uint8Array(signed.length + update.length);
  pdf.set(signed, 0);
  pdf.set(update, signed.length);
  if (!timestamper) return pdf;
  return patchTimestamp(pdf, signed.length, tokenRoom, timestamper);
}

/**
 * `pdf` (a seal with its DSS, and its document timestamp) with `data` added to the DSS in one more
 * incremental update: the document timestamp's TSA chain, known only once it answered.
 */
export function appendDssUpdate(doc: PDFDocument, pdf: Uint8Array, data: ValidationData): Uint8Array {
  const changed = addToDss(doc, data);
  const update = serializeUpdate(doc, pdf, [...changed, ...newRefs(doc, pdf)]);
  const out = new Uint8Array(pdf.length + update.length);
  out.set(pdf, 0);
  out.set(update, pdf.length);
  return out;
}

/** Adds `data` to the catalog's DSS (made when there is none); returns the existing objects changed. */
function addToDss(doc: PDFDocument, data: ValidationData): PDFRef[] {
  const ctx = doc.context;
  const streams = (items: readonly Uint8Array[]): PDFRef[] => items.map((bytes) => ctx.register(ctx.flateStream(bytes)));
  const existing = doc.catalog.get(PDFName.of('DSS'));
  const dss = existing instanceof PDFRef ? ctx.lookup(existing, PDFDict) : ctx.obj({});
  for (const [key, items] of [['Certs', data.certificates], ['OCSPs', data.ocsps], ['CRLs', data.crls]] as const) {
    if (items.length === 0 && key !== 'Certs') continue;
    const list = dss.lookupMaybe(PDFName.of(key), PDFArray) ?? ctx.obj([]);
    for (const ref of streams(items)) list.push(ref);
    dss.set(PDFName.of(key), list);
  }
  if (existing instanceof PDFRef) return [existing];
  doc.catalog.set(PDFName.of('DSS'), ctx.register(dss));
  const root = ctx.trailerInfo.Root;
  if (!(root instanceof PDFRef)) throw new Error('The document catalog is not an indirect object');
  return [root];
}

// Objects are numbered upwards: those registered after the signed save are the ones above the
// largest number written in it (read from its cross-reference table's size).
function newRefs(doc: PDFDocument, signed: Uint8Array): PDFRef[] {
  const size = trailerSize(signed);
  const refs: PDFRef[] = [];
  for (let n = size; n <= doc.context.largestObjectNumber; n++) refs.push(PDFRef.of(n));
  return refs;
}

function trailerSize(pdf: Uint8Array): number {
  const tail = Buffer.from(pdf.subarray(Math.max(0, pdf.length - 4096))).toString('latin1');
  const sizes = [...tail.matchAll(/\/Size (\d+)/g)];
  const last = sizes.at(-1);
  if (!last) throw new Error('The signed PDF has no trailer /Size');
  return Number(last[1]);
}

function startXref(pdf: Uint8Array): number {
  const tail = Buffer.from(pdf.subarray(Math.max(0, pdf.length - 1024))).toString('latin1');
  const m = [...tail.matchAll(/startxref\s+(\d+)/g)].at(-1);
  if (!m) throw new Error('The signed PDF has no startxref');
  return Number(m[1]);
}

function bytesOf(obj: PDFObject): Uint8Array {
  const buf = new Uint8Array(obj.sizeInBytes());
  obj.copyBytesInto(buf, 0);
  return buf;
}

/** The objects, a cross-reference section for them and a trailer pointing back at the previous one. */
function serializeUpdate(doc: PDFDocument, signed: Uint8Array, refs: PDFRef[]): Uint8Array {
  const ctx = doc.context;
  const parts: Uint8Array[] = [];
  let at = signed.length;
  const push = (b: Uint8Array): void => {
    parts.push(b);
    at += b.length;
  };
  // The signed file ends with "%%EOF\n" (pdf-lib); a newline keeps the update on its own line either way.
  push(ascii('\n'));
  const offsets = new Map<number, number>();
  const sorted = [...new Map(refs.map((r) => [r.objectNumber, r])).values()].sort((a, b) => a.objectNumber - b.objectNumber);
  for (const ref of sorted) {
    const obj = ctx.lookup(ref);
    if (obj === undefined) continue;
    offsets.set(ref.objectNumber, at);
    push(ascii(`${ref.objectNumber} ${ref.generationNumber} obj\n`));
    push(bytesOf(obj));
    push(ascii('\nendobj\n'));
  }
  const xrefAt = at;
  let xref = 'xref\n';
  const numbers = [...offsets.keys()];
  for (let i = 0; i < numbers.length;) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    xref += `${numbers[i]} ${j - i + 1}\n`;
    for (let k = i; k <= j; k++) xref += `${String(offsets.get(numbers[k]!)).padStart(10, '0')} 00000 n\r\n`;
    i = j + 1;
  }
  const t = ctx.trailerInfo;
  const entry = (name: string, v: PDFObject | undefined): string => (v ? ` /${name} ${Buffer.from(bytesOf(v)).toString('latin1')}` : '');
  xref += `trailer\n<< /Size ${ctx.largestObjectNumber + 1}${entry('Root', t.Root)}${entry('Info', t.Info)}${entry('ID', t.ID)} /Prev ${startXref(signed)} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  push(ascii(xref));
  return Buffer.concat(parts);
}

/** Fills the document timestamp's /ByteRange and /Contents, placed in the update that starts at `from`. */
async function patchTimestamp(pdf: Uint8Array, from: number, room: number, timestamper: DocumentTimestamper): Promise<Uint8Array> {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const contentsAt = buf.indexOf(ascii(`<${'0'.repeat(room * 2)}>`), from);
  const rangeAt = buf.indexOf(ascii(BYTE_RANGE_PLACEHOLDER), from);
  if (contentsAt < 0 || rangeAt < 0) throw new Error('The document timestamp placeholder was not found');
  const gapEnd = contentsAt + room * 2 + 2;
  const range = `[0 ${contentsAt} ${gapEnd} ${pdf.length - gapEnd}]`;
  if (range.length > BYTE_RANGE_PLACEHOLDER.length) throw new Error('The PDF is too large to timestamp');
  pdf.set(ascii(range.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' ')), rangeAt);
  const digest = createHash('sha256').update(pdf.subarray(0, contentsAt)).update(pdf.subarray(gapEnd)).digest();
  const token = await timestamper(digest);
  if (token.length > room) throw new Error(`The document timestamp (${token.length} bytes) does not fit the ${room} bytes reserved for it`);
  pdf.set(ascii(Buffer.from(token).toString('hex').toUpperCase()), contentsAt + 1);
  return pdf;
}
