import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState } from '@cantoo/pdf-lib';
import { PdfRejectedError } from '../../src/pdf/field.js';
import { MAX_IMAGE_PIXELS, pageImage } from '../../src/pdf/raster/page-image.js';

const isWebp = (b: Uint8Array): boolean => Buffer.from(b.subarray(0, 4)).toString('latin1') === 'RIFF' && Buffer.from(b.subarray(8, 12)).toString('latin1') === 'WEBP';

/** One page showing an image that claims `side`² gray pixels, in a few KB of Flate. */
async function pdfWithImage(side: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 400]);
  const ref = doc.context.register(doc.context.stream(deflateSync(Buffer.alloc(side * side, 0x80)), {
    Type: 'XObject', Subtype: 'Image', Width: side, Height: side, ColorSpace: 'DeviceGray', BitsPerComponent: 8, Filter: 'FlateDecode',
  }));
  const name = page.node.newXObject('Im', ref);
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(300, 0, 0, 400, 0, 0), drawObject(name), popGraphicsState());
  return doc.save();
}

// The first-page picture is drawn in the PDF pool from a stored document (page-image.ts): its images are
// bounded like every image the product takes, and anything pdf.js cannot draw is a clean refusal.
describe('a page drawn as a picture', () => {
  it('an image over 25 megapixels is left out, not decoded; the page is still drawn', async () => {
    assert.equal(MAX_IMAGE_PIXELS, 25_000_000);
    const small = await pageImage(await pdfWithImage(200), 1, 1);
    const huge = await pageImage(await pdfWithImage(6000), 1, 1);
    assert.ok(isWebp(small) && isWebp(huge));
    // The small image is drawn (mid gray); the 36-megapixel one is not (the page stays white), so the two differ.
    assert.notDeepEqual(huge, small);
  });

  it('bytes pdf.js cannot read are a PdfRejectedError, not a crash', async () => {
    await assert.rejects(pageImage(new TextEncoder().encode('not a pdf at all'), 1, 1), (err: unknown) => err instanceof PdfRejectedError && err.code === 'pdf_too_complex');
  });
});
