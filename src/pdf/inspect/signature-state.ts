// Formsign signs documents itself; a PDF that already carries a signature or a certification
// would be invalidated by filling, so the inspector refuses it.
import { PDFAcroSignature, PDFDict, PDFName, type PDFDocument, type PDFForm } from '@cantoo/pdf-lib';

/** Why the document counts as already signed, or undefined. */
export function alreadySignedReason(doc: PDFDocument, form: PDFForm): string | undefined {
  // /Perms /UR3 (Reader Extensions usage rights) is Adobe's signature on the *form*, present on
  // many blank government forms; only a DocMDP certification belongs to a signed document.
  const perms = doc.catalog.lookupMaybe(PDFName.of('Perms'), PDFDict);
  if (perms?.has(PDFName.of('DocMDP'))) return 'This PDF is certified with a digital signature';
  for (const field of form.getFields()) {
    if (!(field.acroField instanceof PDFAcroSignature)) continue;
    // SigFlags alone is no evidence: reader-extended blank forms set it too (the InDesign sample),
    // so only a signature field holding a signature dictionary counts.
    const value = field.acroField.dict.lookup(PDFName.of('V'));
    if (value instanceof PDFDict) return `The signature field "${field.getName()}" is already signed`;
  }
  return undefined;
}
