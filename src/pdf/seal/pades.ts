// The PAdES signature: an invisible signature field whose /V dictionary reserves room for the CMS
// (/Contents) and the /ByteRange. The document is saved once, without object streams (so both stay
// literal bytes in the file); then the ByteRange is written into its reserved room, the bytes
// around /Contents are hashed and signed, and the CMS is patched in. No incremental update here;
// the long-term validation data and document timestamp of a B-LTA seal follow as one (ltv.ts).
import { createHash } from 'node:crypto';
import { PDFHexString, PDFInvalidObject, PDFName, PDFString, type PDFDocument, type PDFPage } from '@cantoo/pdf-lib';
import type { SigningCertificate } from './certificate.js';
import { buildCadesSignature, type SignatureTimestamper } from './cms.js';

// Ten digits cover any offset below 10 GB; the patched array is padded with spaces to this length.
export const BYTE_RANGE_PLACEHOLDER = '[0 /********** /********** /**********]';
// Room for the signed attributes, the signature and the certificates, with margin; a timestamp token
// (its TSA's certificates included) adds up to TIMESTAMP_ROOM.
export const TIMESTAMP_ROOM = 12_288;
const reservedBytes = (cert: SigningCertificate, timestamped: boolean): number =>
  4096 + cert.certificateDer.length + cert.chainDer.reduce((n, c) => n + c.length, 0) + (timestamped ? TIMESTAMP_ROOM : 0);

// Latin-1 is byte for byte what these ASCII strings are; Buffer.from does it natively (Uint8Array.from
// with a map function walked the tens of thousands of characters of the /Contents hex one by one).
export const ascii = (s: string): Uint8Array => Buffer.from(s, 'latin1');

function lastIndexOf(haystack: Uint8Array, needle: Uint8Array): number {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).lastIndexOf(Buffer.from(needle));
}

export interface SignatureInfo {
  signingTime: Date;
  /** Shown by viewers as the reason for signing. */
  reason: string;
}

/** Adds the signature field (on `page`, invisible) and returns the saved, signed bytes. */
export async function saveSigned(doc: PDFDocument, page: PDFPage, cert: SigningCertificate, info: SignatureInfo, timestamper?: SignatureTimestamper): Promise<Uint8Array> {
  const reserved = reservedBytes(cert, timestamper !== undefined);
  const ctx = doc.context;
  const signature = ctx.register(ctx.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: 'ETSI.CAdES.detached',
    ByteRange: PDFInvalidObject.of(ascii(BYTE_RANGE_PLACEHOLDER)),
    Contents: PDFHexString.of('0'.repeat(reserved * 2)),
    M: PDFString.fromDate(info.signingTime),
    Reason: PDFHexString.fromText(info.reason),
    Name: PDFHexString.fromText(cert.subject),
  }));
  const widget = ctx.register(ctx.obj({
    Type: 'Annot', Subtype: 'Widget', FT: 'Sig', T: PDFString.of('Seal'), V: signature,
    // Print + Locked; a zero rectangle: the seal is the whole document, not a mark on a page.
    F: 132, Rect: [0, 0, 0, 0], P: page.ref,
  }));
  page.node.addAnnot(widget);
  // SigFlags 3: the document has signatures and is to be changed only by appending.
  doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [widget], SigFlags: 3 }));

  const pdf = await doc.save({ useObjectStreams: false, updateFieldAppearances: false, objectsPerTick: Number.POSITIVE_INFINITY });
  const contentsAt = lastIndexOf(pdf, ascii(`<${'0'.repeat(reserved * 2)}>`));
  const rangeAt = lastIndexOf(pdf, ascii(BYTE_RANGE_PLACEHOLDER));
  if (contentsAt < 0 || rangeAt < 0) throw new Error('The signature placeholder was not found in the saved PDF');
  const gapEnd = contentsAt + reserved * 2 + 2;
  const range = `[0 ${contentsAt} ${gapEnd} ${pdf.length - gapEnd}]`;
  if (range.length > BYTE_RANGE_PLACEHOLDER.length) throw new Error('The PDF is too large to sign');
  pdf.set(ascii(range.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' ')), rangeAt);

  const digest = createHash('sha256').update(pdf.subarray(0, contentsAt)).update(pdf.subarray(gapEnd)).digest();
  const cms = await buildCadesSignature(digest, cert, timestamper);
  if (cms.length > reserved) throw new Error(`The signature (${cms.length} bytes) does not fit the ${reserved} bytes reserved for it`);
  pdf.set(ascii(cms.toString('hex').toUpperCase()), contentsAt + 1);
  return pdf;
}
