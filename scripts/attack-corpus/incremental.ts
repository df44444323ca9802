// A small incremental-update writer for the attack corpus: objects appended after a PDF's last
// byte, with a classic cross-reference table or a cross-reference stream (as pyHanko and other tools
// write them), and an approval signature placed in such an update (placeholder, byte range, CMS by
// our own cms.ts). It writes what it is told, attacks included; it is not product code.
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFInvalidObject, PDFName, PDFRef, PDFString, ParseSpeeds, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { buildCadesSignature } from '../../src/pdf/seal/cms.js';
import type { SigningCertificate } from '../../src/pdf/index.js';
import { lastStartXref, PdfFile } from '../../src/pdf/verify/xref-reader.js';

export const N = (s: string): PDFName => PDFName.of(s);
const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');

export interface Update {
  /** Objects to write, by number (generation 0). */
  objects: Map<number, PDFObject | Uint8Array>;
  /** Entries pointing at bytes already in the file (an xref-only "update"). */
  pointAt?: Map<number, number>;
  root?: PDFRef;
  info?: PDFRef;
  xrefStream?: boolean;
  /** The trailer's /ID as written (e.g. "[<ab…> <cd…>]"); the last revision's when not given. */
  id?: string;
}

function bytesOf(obj: PDFObject | Uint8Array): Uint8Array {
  if (obj instanceof Uint8Array) return obj;
  const buf = new Uint8Array(obj.sizeInBytes());
  obj.copyBytesInto(buf, 0);
  return buf;
}

/** The trailer facts of the last revision: /Size, /Root, /Info, /ID. */
export function lastTrailer(pdf: Uint8Array): PDFDict {
  const file = new PdfFile(pdf);
  const chain = file.chain(lastStartXref(pdf));
  const merged = file.context.obj({});
  for (const s of [...chain].reverse()) for (const [k, v] of s.trailer.entries()) merged.set(k, v);
  return merged;
}

/** `pdf` with one incremental update appended. */
export function appendUpdate(pdf: Uint8Array, u: Update): Buffer {
  const trailer = lastTrailer(pdf);
  const prev = lastStartXref(pdf)!;
  const prevSize = Number(trailer.get(N('Size'))?.toString() ?? '0');
  const parts: Buffer[] = [Buffer.from(pdf), ascii('\n')];
  let at = pdf.length + 1;
  const offsets = new Map<number, number>(u.pointAt ?? []);
  for (const [n, obj] of [...u.objects].sort((a, b) => a[0] - b[0])) {
    offsets.set(n, at);
    const chunk = Buffer.concat([ascii(`${n} 0 obj\n`), Buffer.from(bytesOf(obj)), ascii('\nendobj\n')]);
    parts.push(chunk);
    at += chunk.length;
  }
  const maxNumber = Math.max(prevSize - 1, ...offsets.keys());
  const root = (u.root ?? trailer.get(N('Root')))!.toString();
  const infoObj = u.info ?? trailer.get(N('Info'));
  const info = infoObj ? ` /Info ${infoObj.toString()}` : '';
  const idValue = u.id ?? trailer.get(N('ID'))?.toString();
  const id = idValue ? ` /ID ${idValue}` : '';
  if (!u.xrefStream) {
    const numbers = [...offsets.keys()].sort((a, b) => a - b);
    let xref = 'xref\n';
    for (let i = 0; i < numbers.length;) {
      let j = i;
      while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
      xref += `${numbers[i]} ${j - i + 1}\n`;
      for (let k = i; k <= j; k++) xref += `${String(offsets.get(numbers[k]!)).padStart(10, '0')} 00000 n\r\n`;
      i = j + 1;
    }
    xref += `trailer\n<< /Size ${maxNumber + 1} /Root ${root}${info}${id} /Prev ${prev} >>\nstartxref\n${at}\n%%EOF\n`;
    parts.push(ascii(xref));
    return Buffer.concat(parts);
  }
  // A cross-reference stream: itself the next object number, rows of (type, offset, generation).
  const self = maxNumber + 1;
  offsets.set(self, at);
  const numbers = [...offsets.keys()].sort((a, b) => a - b);
  const rows = Buffer.alloc(numbers.length * 7);
  numbers.forEach((n, i) => {
    rows.writeUInt8(1, i * 7);
    rows.writeUInt32BE(offsets.get(n)!, i * 7 + 1);
    rows.writeUInt16BE(0, i * 7 + 5);
  });
  const data = zlib.deflateSync(rows);
  const index = numbers.map((n) => `${n} 1`).join(' ');
  const dict = `<< /Type /XRef /Size ${self + 1} /W [1 4 2] /Index [${index}] /Root ${root}${info}${id} /Prev ${prev} /Filter /FlateDecode /Length ${data.length} >>`;
  parts.push(Buffer.concat([ascii(`${self} 0 obj\n${dict}\nstream\n`), data, ascii(`\nendstream\nendobj\nstartxref\n${at}\n%%EOF\n`)]));
  return Buffer.concat(parts);
}

export async function load(pdf: Uint8Array): Promise<PDFDocument> {
  return PDFDocument.load(pdf, { ignoreEncryption: true, updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
}

/** The next free object number after the last revision. */
export function nextNumber(pdf: Uint8Array): number {
  return Number(lastTrailer(pdf).get(N('Size'))?.toString() ?? '1');
}

export interface SignOptions {
  field: string;
  /** Objects to write in the same update besides the signature's own (an attacker's extras). */
  extra?: Map<number, PDFObject | Uint8Array>;
  pageIndex?: number;
  xrefStream?: boolean;
}

const RESERVED = 8192;
const PLACEHOLDER = '[0 /********** /********** /**********]';

/** A signature dictionary's /Contents and /ByteRange before they are filled (fillPlaceholder fills them). */
export const placeholder = (): { contents: PDFHexString; byteRange: PDFInvalidObject } => ({
  contents: PDFHexString.of('0'.repeat(RESERVED * 2)),
  byteRange: PDFInvalidObject.of(ascii(PLACEHOLDER)),
});

/**
 * `pdf` with an approval signature by `cert` appended as an incremental update: a new signature
 * field (invisible widget on a page) in the AcroForm's /Fields and the page's /Annots.
 */
export async function appendSignature(pdf: Uint8Array, cert: SigningCertificate, opts: SignOptions): Promise<Buffer> {
  const doc = await load(pdf);
  const ctx = doc.context;
  let n = nextNumber(pdf);
  const objects = new Map<number, PDFObject | Uint8Array>(opts.extra ?? []);
  for (const k of objects.keys()) n = Math.max(n, k + 1);
  const sigRef = PDFRef.of(n++);
  const widgetRef = PDFRef.of(n++);
  const page = doc.getPages()[opts.pageIndex ?? 0]!;
  const { contents, byteRange } = placeholder();
  objects.set(sigRef.objectNumber, ctx.obj({
    Type: 'Sig', Filter: 'Adobe.PPKLite', SubFilter: 'ETSI.CAdES.detached',
    ByteRange: byteRange, Contents: contents,
    M: PDFString.fromDate(new Date()), Name: PDFHexString.fromText(cert.subject),
  }));
  objects.set(widgetRef.objectNumber, ctx.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', T: PDFString.of(opts.field), V: sigRef, F: 132, Rect: [0, 0, 0, 0], P: page.ref }));
  const pageDict = page.node.clone(ctx);
  const annots = pageDict.get(N('Annots'));
  if (annots instanceof PDFRef) {
    const list = (ctx.lookup(annots) as PDFArray).clone(ctx);
    list.push(widgetRef);
    objects.set(annots.objectNumber, list);
  } else {
    const list = annots instanceof PDFArray ? annots.clone(ctx) : ctx.obj([]);
    list.push(widgetRef);
    pageDict.set(N('Annots'), list);
    objects.set(page.ref.objectNumber, pageDict);
  }
  const rootRef = ctx.trailerInfo.Root as PDFRef;
  const catalog = (ctx.lookup(rootRef) as PDFDict).clone(ctx);
  const formEntry = catalog.get(N('AcroForm'));
  if (formEntry instanceof PDFRef) {
    const form = (ctx.lookup(formEntry) as PDFDict).clone(ctx);
    (form.get(N('Fields')) as PDFArray).push(widgetRef);
    form.set(N('SigFlags'), ctx.obj(3));
    objects.set(formEntry.objectNumber, form);
  } else {
    const form = formEntry instanceof PDFDict ? formEntry.clone(ctx) : ctx.obj({ Fields: [] });
    const fields = form.get(N('Fields'));
    const list = fields instanceof PDFRef ? (ctx.lookup(fields) as PDFArray).clone(ctx) : (fields as PDFArray).clone(ctx);
    list.push(widgetRef);
    if (fields instanceof PDFRef) objects.set(fields.objectNumber, list);
    else form.set(N('Fields'), list);
    form.set(N('SigFlags'), ctx.obj(3));
    catalog.set(N('AcroForm'), form);
    objects.set(rootRef.objectNumber, catalog);
  }
  const out = appendUpdate(pdf, { objects, ...(opts.xrefStream ? { xrefStream: true } : {}) });
  return fillPlaceholder(out, (digest) => buildCadesSignature(digest, cert));
}

/**
 * Fills the last signature placeholder of `pdf`: its byte range, then what `sign` makes of the
 * SHA-256 of the bytes it covers (a CMS signature, or a timestamp token for a document timestamp).
 */
export async function fillPlaceholder(pdf: Buffer, sign: (digest: Buffer) => Promise<Buffer>): Promise<Buffer> {
  const contentsAt = pdf.lastIndexOf(ascii(`<${'0'.repeat(RESERVED * 2)}>`));
  const rangeAt = pdf.lastIndexOf(ascii(PLACEHOLDER));
  if (contentsAt < 0 || rangeAt < 0) throw new Error('no signature placeholder');
  const gapEnd = contentsAt + RESERVED * 2 + 2;
  const range = `[0 ${contentsAt} ${gapEnd} ${pdf.length - gapEnd}]`;
  pdf.write(range.padEnd(PLACEHOLDER.length, ' '), rangeAt, 'latin1');
  const digest = createHash('sha256').update(pdf.subarray(0, contentsAt)).update(pdf.subarray(gapEnd)).digest();
  const cms = await sign(digest);
  if (cms.length > RESERVED) throw new Error(`the signature (${cms.length} bytes) does not fit its placeholder`);
  pdf.write(cms.toString('hex').toUpperCase(), contentsAt + 1, 'latin1');
  return pdf;
}

/** A stream object (uncompressed) with `dict` entries. */
export function stream(ctx: PDFContext, content: string | Uint8Array, dict: Record<string, unknown> = {}): PDFObject {
  return ctx.stream(typeof content === 'string' ? ascii(content) : content, dict as never);
}

/**
 * `pdf` (one revision, classic table) as a hybrid-reference file, laid out as ISO 32000's example:
 * the objects numbered in `hide` are put in an object stream and marked free in the main table; an
 * update section with no entries names, with /XRefStm, the xref stream that lists them. A PDF 1.4
 * reader sees them free, a later one finds them in the stream.
 */
export function hybridOf(pdf: Uint8Array, hide: readonly number[]): Buffer {
  const file = new PdfFile(pdf);
  const main = file.chain(lastStartXref(pdf));
  if (main.length !== 1) throw new Error('hybridOf takes a file of one revision');
  const section = main[0]!;
  const size = Number(section.trailer.get(N('Size'))?.toString() ?? '0');
  const objStm = size;
  const xrefStm = size + 1;
  const body = Buffer.from(pdf.subarray(0, section.at));
  // Each hidden object's text between "n 0 obj" and "endobj", as the file has it.
  const texts = hide.map((n) => {
    const e = section.entries.get(n);
    if (e?.kind !== 'offset') throw new Error(`object ${n} is not in the table`);
    const text = body.subarray(e.offset, body.indexOf('endobj', e.offset)).toString('latin1');
    return text.replace(/^\s*\d+\s+\d+\s+obj\s*/, '').trim();
  });
  let offsets = '';
  let objects = '';
  texts.forEach((t, i) => {
    offsets += `${hide[i]} ${objects.length} `;
    objects += `${t}\n`;
  });
  const data = zlib.deflateSync(ascii(offsets + objects));
  const parts: Buffer[] = [body];
  let at = body.length;
  const push = (b: Buffer): number => {
    const start = at;
    parts.push(b);
    at += b.length;
    return start;
  };
  const root = section.trailer.get(N('Root'))!.toString();
  const info = section.trailer.get(N('Info')) ? ` /Info ${section.trailer.get(N('Info'))!.toString()}` : '';
  const id = section.trailer.get(N('ID')) ? ` /ID ${section.trailer.get(N('ID'))!.toString()}` : '';
  const mainAt = at;
  let table = `xref\n0 ${size + 2}\n`;
  for (let n = 0; n < size + 2; n++) {
    const e = section.entries.get(n);
    table += e?.kind === 'offset' && !hide.includes(n) ? `${String(e.offset).padStart(10, '0')} ${String(e.gen).padStart(5, '0')} n\r\n` : '0000000000 65535 f\r\n';
  }
  push(ascii(`${table}trailer\n<< /Size ${size + 2} /Root ${root}${info}${id} >>\nstartxref\n${mainAt}\n%%EOF\n`));
  const stmAt = push(Buffer.concat([ascii(`${objStm} 0 obj\n<< /Type /ObjStm /N ${hide.length} /First ${offsets.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`), data, ascii('\nendstream\nendobj\n')]));
  const xrefAt = at;
  const rows = Buffer.alloc((hide.length + 2) * 7);
  const numbers = [...hide.map((n, i) => ({ n, row: [2, objStm, i] })), { n: objStm, row: [1, stmAt, 0] }, { n: xrefStm, row: [1, xrefAt, 0] }].sort((a, b) => a.n - b.n);
  numbers.forEach(({ row }, i) => {
    rows.writeUInt8(row[0]!, i * 7);
    rows.writeUInt32BE(row[1]!, i * 7 + 1);
    rows.writeUInt16BE(row[2]!, i * 7 + 5);
  });
  const xdata = zlib.deflateSync(rows);
  push(Buffer.concat([ascii(`${xrefStm} 0 obj\n<< /Type /XRef /Size ${size + 2} /W [1 4 2] /Index [${numbers.map(({ n }) => `${n} 1`).join(' ')}] /Filter /FlateDecode /Length ${xdata.length} >>\nstream\n`), xdata, ascii('\nendstream\nendobj\n')]));
  const updateAt = at;
  push(ascii(`xref\n0 0\ntrailer\n<< /Size ${size + 2} /Prev ${mainAt} /XRefStm ${xrefAt} /Root ${root}${info}${id} >>\nstartxref\n${updateAt}\n%%EOF\n`));
  return Buffer.concat(parts);
}
