// pdf.js, which reads the page text for nearby-text labels (nearby-text.ts), decodes content streams
// and fonts with no cap of its own: the decode guard (shared/decode-guard.ts) bounds only pdf-lib, and
// decoded data lives outside the worker's heap limit. So before pdf.js sees a page, every stream it
// could decode to read that page's text is decoded once through pdf-lib, under the guard, against one
// budget; a page over it (a content-stream bomb) gets no nearby-text labels, and the import goes on.
import {
  decodePDFRawStream, PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFDocument, type PDFObject,
} from '@cantoo/pdf-lib';

/** Decoded bytes that the streams behind the labelled pages' text may add up to. */
export const TEXT_DECODE_BUDGET_BYTES = 64 * 1024 * 1024;
/** Objects visited at most: a page's resources are tens to hundreds of objects, not a graph to crawl. */
const MAX_OBJECTS = 20_000;
/** What pdf.js reads to extract text: the page's contents and resources, form XObjects and fonts. */
const IMAGE = PDFName.of('Image');
const SUBTYPE = PDFName.of('Subtype');
const PARENT = PDFName.of('Parent');
const ANNOTS = PDFName.of('Annots');

/** Whether pdf.js may read the text of `pageNumbers` (1-based) within the budget. */
export function textFitsBudget(doc: PDFDocument, pageNumbers: Iterable<number>, budget = TEXT_DECODE_BUDGET_BYTES): boolean {
  const seen = new Set<PDFObject>();
  let decoded = 0;
  let visited = 0;
  const pages = doc.getPages();
  const stack: PDFObject[] = [];
  for (const n of pageNumbers) {
    const node = pages[n - 1]?.node;
    if (!node) continue;
    for (const [key, value] of node.entries()) if (key !== PARENT && key !== ANNOTS) stack.push(value);
    // Resources may be inherited from the page tree, which the walk does not climb.
    const resources = node.Resources();
    if (resources) stack.push(resources);
  }
  try {
    while (stack.length > 0) {
      let obj = stack.pop()!;
      if (obj instanceof PDFRef) obj = doc.context.lookup(obj) ?? obj;
      if (seen.has(obj)) continue;
      seen.add(obj);
      if (++visited > MAX_OBJECTS) return false;
      if (obj instanceof PDFRawStream) {
        // Images are not decoded to read text; every other stream may be (contents, forms, fonts, CMaps).
        if (obj.dict.get(SUBTYPE) !== IMAGE) {
          decoded += decodePDFRawStream(obj).decode().length;
          if (decoded > budget) return false;
        }
        for (const [key, value] of obj.dict.entries()) if (key !== PARENT) stack.push(value);
      } else if (obj instanceof PDFDict) {
        for (const [key, value] of obj.entries()) if (key !== PARENT && key !== ANNOTS) stack.push(value);
      } else if (obj instanceof PDFArray) {
        stack.push(...obj.asArray());
      }
    }
  } catch {
    // The guard stopped a stream, or pdf-lib cannot decode its filter: pdf.js is not let near it.
    return false;
  }
  return true;
}
