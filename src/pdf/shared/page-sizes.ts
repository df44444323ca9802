// Each page's size as a viewer shows it (PDF points, CropBox within MediaBox, /Rotate applied), for a
// page that reserves each page's box before the document arrives (issue 43 item 4).
import { ParseSpeeds, PDFDocument } from '@cantoo/pdf-lib';
import { displaySize } from './page-geometry.js';

/** `[width, height]` of one page, in PDF points, rounded to 2 decimals. */
export type PageSize = [number, number];

const round2 = (n: number): number => Math.round(n * 100) / 100;

export function pageSizesOfDocument(doc: PDFDocument): PageSize[] {
  return doc.getPages().map((page) => {
    const { width, height } = displaySize(page);
    return [round2(width), round2(height)];
  });
}

/** A stored document's page sizes (a file that was inspected at upload, so it opens). */
export async function pageSizesOf(pdf: Uint8Array): Promise<PageSize[]> {
  const doc = await PDFDocument.load(pdf, { parseSpeed: ParseSpeeds.Fastest, updateMetadata: false, ignoreEncryption: true });
  return pageSizesOfDocument(doc);
}
