// pdf-lib keeps every parsed object, including the cross-reference streams of earlier revisions and,
// after decrypting, the /Encrypt dictionary. Written back out, these orphans make pdf-lib itself
// read the saved file as encrypted again, so they are dropped before saving.
import { PDFDict, PDFInvalidObject, PDFName, PDFRawStream, type PDFDocument } from '@cantoo/pdf-lib';

const TYPE = PDFName.of('Type');
const XREF = PDFName.of('XRef');
const FILTER = PDFName.of('Filter');

function isEncryptionDict(obj: unknown): boolean {
  if (!(obj instanceof PDFDict)) return false;
  const filter = obj.get(FILTER);
  return filter instanceof PDFName && obj.has(PDFName.of('O')) && obj.has(PDFName.of('U')) && obj.has(PDFName.of('R'));
}

// While decrypting, pdf-lib fails to parse the (never encrypted) cross-reference streams and keeps
// them as opaque "invalid" objects, which it later writes back verbatim.
function isUnparsedXref(obj: unknown): boolean {
  if (!(obj instanceof PDFInvalidObject)) return false;
  const bytes = new Uint8Array(obj.sizeInBytes());
  obj.copyBytesInto(bytes, 0);
  return /\/Type\s*\/XRef\b/.test(Buffer.from(bytes.subarray(0, 2048)).toString('latin1'));
}

/** Removes old cross-reference streams, and encryption dictionaries when the document was decrypted. */
export function dropStaleStructures(doc: PDFDocument, decrypted: boolean): void {
  const { context } = doc;
  for (const [ref, obj] of context.enumerateIndirectObjects()) {
    const staleXref = (obj instanceof PDFRawStream && obj.dict.get(TYPE) === XREF) || isUnparsedXref(obj);
    if (staleXref || (decrypted && isEncryptionDict(obj))) context.delete(ref);
  }
}

/**
 * Adobe "Reader Extensions" (/Perms /UR3) sign the blank form; any change invalidates that
 * signature and Adobe Reader then warns and disables features, so filled copies drop it.
 */
export function dropUsageRights(doc: PDFDocument): void {
  const perms = doc.catalog.lookupMaybe(PDFName.of('Perms'), PDFDict);
  if (!perms) return;
  perms.delete(PDFName.of('UR3'));
  perms.delete(PDFName.of('UR'));
  if (perms.keys().length === 0) doc.catalog.delete(PDFName.of('Perms'));
}
