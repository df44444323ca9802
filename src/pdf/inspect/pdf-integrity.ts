// A PDF cut short and then given a fresh %%EOF (a broken download "repaired" by some tool, or a
// hostile upload) still loads: pdf-lib reads the objects that survived. Its pages then point at
// fonts, content or fields that are gone, and every filled copy would be broken the same way.
import { PDFArray, PDFDict, PDFName, PDFRef, PDFStream, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';

/**
 * The references under the page tree and the AcroForm that point at no object. A well-formed file has
 * none there (the spec lets a dangling reference stand for null, but no producer we have seen writes
 * one into its pages or fields), so any is taken as damage. Iterative: the graph can be deep.
 */
export function danglingReferences(doc: PDFDocument): number {
  const seen = new Set<PDFRef>();
  const stack: PDFObject[] = [];
  for (const key of ['Pages', 'AcroForm']) {
    const root = doc.catalog.get(PDFName.of(key));
    if (root) stack.push(root);
  }
  let dangling = 0;
  while (stack.length > 0) {
    const object = stack.pop()!;
    if (object instanceof PDFRef) {
      if (seen.has(object)) continue;
      seen.add(object);
      const target = doc.context.lookup(object);
      if (target === undefined) dangling++;
      else stack.push(target);
    } else if (object instanceof PDFDict) {
      for (const [, value] of object.entries()) stack.push(value);
    } else if (object instanceof PDFArray) {
      for (let i = 0; i < object.size(); i++) stack.push(object.get(i));
    } else if (object instanceof PDFStream) {
      stack.push(object.dict);
    }
  }
  return dangling;
}
