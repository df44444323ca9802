// One page of a document drawn as a picture (issue 43 item 4): the signing page shows it the moment it
// arrives, before pdf.js (about 500 KB with its worker) and the PDF itself have loaded, so on a slow
// phone the signer sees the first page and works on its fields seconds sooner. Drawn by the same
// pdf.js the page uses (its Node build, onto @napi-rs/canvas, which pdf.js ships as its Node canvas),
// in a pool worker: it is CPU work (about 0.3-1 s for the 1040's first page) and never runs on the
// event loop. WebP at quality 60 (measured on the 1040's first page at 1.75 px/pt: 88 KB, where JPEG
// 70 is 167 KB and PNG 323 KB); the crisp page replaces it once pdf.js has drawn it.
import { createRequire } from 'node:module';
import path from 'node:path';
import { PdfRejectedError } from '../field.js';

const PDFJS_DIR = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const STANDARD_FONTS_URL = `${path.join(PDFJS_DIR, 'standard_fonts')}/`;
const CMAP_URL = `${path.join(PDFJS_DIR, 'cmaps')}/`;
/** WebP's quality: text stays readable at the guided zoom (looked at on the 1040 at 390×844). */
const QUALITY = 60;
/** The largest side drawn, whatever the page's size and scale asked (a poster-sized page stays bounded). */
const MAX_SIDE = 2400;
/**
 * The largest image pdf.js decodes, in pixels: 25 megapixels, as the product bounds every image it is
 * given. A larger one (a hostile or careless upload: a few KB of Flate can claim 100 000² pixels) is
 * left out of the picture rather than decoded; pdf.js in the browser still draws the real page.
 */
export const MAX_IMAGE_PIXELS = 25_000_000;
/** The largest canvas pdf.js may allocate for its own intermediate drawing (masks, patterns), in bytes: 25 MP × 4. */
const CANVAS_MAX_AREA_BYTES = MAX_IMAGE_PIXELS * 4;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;

/** What pdf.js's Node canvas factory makes (@napi-rs/canvas), as far as this file uses it. */
interface NodeCanvas { width: number; height: number; encode(format: 'webp', quality: number): Promise<Buffer> }
interface NodeContext { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void }
interface CanvasFactory { create(width: number, height: number): { canvas: NodeCanvas; context: NodeContext } }
type RenderParams = Parameters<Awaited<ReturnType<Awaited<ReturnType<PdfJs['getDocument']>['promise']>['getPage']>>['render']>[0];

/** Page `pageNumber` (1-based) of `pdf` at `scale` pixels per point, as WebP bytes on white. */
export async function pageImage(pdf: Uint8Array, pageNumber: number, scale: number): Promise<Uint8Array> {
  try {
    return await drawPage(pdf, pageNumber, scale);
  } catch (err) {
    // A clean refusal, never a crash of the route: the signing page then draws the page with pdf.js.
    throw new PdfRejectedError('pdf_too_complex', `This page could not be drawn as a picture (${err instanceof Error ? err.message : String(err)}).`);
  }
}

async function drawPage(pdf: Uint8Array, pageNumber: number, scale: number): Promise<Uint8Array> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const { getDocument } = await pdfjs;
  const doc = await getDocument({
    data: pdf.slice(), isEvalSupported: false, useSystemFonts: false, disableFontFace: true, verbosity: 0, cMapUrl: CMAP_URL, cMapPacked: true, standardFontDataUrl: STANDARD_FONTS_URL,
    maxImageSize: MAX_IMAGE_PIXELS, canvasMaxAreaInBytes: CANVAS_MAX_AREA_BYTES,
  }).promise;
  try {
    const page = await doc.getPage(pageNumber);
    const base = page.getViewport({ scale: 1 });
    const fit = Math.min(scale, MAX_SIDE / Math.max(base.width, base.height));
    const viewport = page.getViewport({ scale: fit });
    const { canvas, context } = (doc.canvasFactory as CanvasFactory).create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas, canvasContext: context, viewport } as unknown as RenderParams).promise;
    const bytes = await canvas.encode('webp', QUALITY);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } finally {
    await doc.destroy();
  }
}
