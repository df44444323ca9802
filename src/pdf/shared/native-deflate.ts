// Compression for the documents the seal writes: Node's zlib (native) instead of pdf-lib's own
// JavaScript deflate (fflate), 2–7× less CPU for the same FlateDecode streams (measured on a font
// subset and on content streams). Both write standard zlib data; readers see no difference. Scoped
// to one document: what pdf-lib does for anyone else is left as it is.
import { deflateSync } from 'node:zlib';
import { PDFFlateStream, type PDFDocument } from '@cantoo/pdf-lib';

type FlateStream = PDFDocument['context']['flateStream'];

/**
 * Streams `doc` embeds from now on (fonts, images: PDFContext.flateStream) are deflated natively.
 * An own property of this document's context, shadowing the prototype's method.
 */
export function deflateEmbeddedNatively(doc: PDFDocument): void {
  const ctx = doc.context;
  const flateStream: FlateStream = (contents, dict = {}) => {
    const bytes = typeof contents === 'string' ? Buffer.from(contents, 'latin1') : contents;
    return ctx.stream(deflateSync(bytes), { ...dict, Filter: 'FlateDecode' });
  };
  Object.defineProperty(ctx, 'flateStream', { value: flateStream, configurable: true, writable: true });
}

/**
 * Deflates now, natively, every stream pdf-lib would deflate while saving (content streams: pages,
 * appearances, what the seal drew). Call it last, just before saving: a stream's operators pushed
 * after it would not be written (its contents are fixed here).
 */
export function deflateContentsNatively(doc: PDFDocument): void {
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFFlateStream) || !(obj as unknown as { encode: boolean }).encode) continue;
    obj.updateContents(deflateSync(obj.getUnencodedContents()));
  }
}
