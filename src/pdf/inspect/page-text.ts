// The text pdf.js reads from a page, with a box for any part of each piece of text, in the fields'
// space (PDF points, origin top-left of the page as shown, so a rotated page is handled by pdf.js's
// viewport). Shared by nearby-text labels and text tags; runs in the inspector's worker thread, and
// the caller checks the page against the decode budget first (text-budget.ts).
import { createRequire } from 'node:module';
import path from 'node:path';
import { StandardFontEmbedder, StandardFonts } from '@cantoo/pdf-lib';

export interface Box { left: number; right: number; top: number; bottom: number }

export interface TextPiece {
  str: string;
  /** The piece ends a line (pdf.js's hasEOL). */
  eol: boolean;
  /** The box of the UTF-16 units [from, to) of `str`, baseline descent to font size, by width share. */
  boxOf(from: number, to: number): Box;
}

// pdf.js gives each piece's width, not its characters'. Helvetica's widths share a piece's width out
// among its characters far better than equal shares (an "i" is a third of a "W"), so a tag inside a
// longer piece ("Rent: {{rent}}") is boxed where it is printed; other scripts take an average width.
const HELVETICA = StandardFontEmbedder.for(StandardFonts.Helvetica as unknown as Parameters<typeof StandardFontEmbedder.for>[0]);
const widthCache = new Map<string, number>();
function charWeight(ch: string): number {
  let w = widthCache.get(ch);
  if (w === undefined) {
    try {
      w = HELVETICA.widthOfTextAtSize(ch, 1000) || 556;
    } catch {
      w = 556;
    }
    if (widthCache.size < 4096) widthCache.set(ch, w);
  }
  return w;
}
/** How far below the baseline a box reaches, as a share of the font size (descenders: g, p, _). */
const DESCENT = 0.25;

// pdf.js reads CJK text through its character maps; without them every character of some CID fonts
// comes out as the same one. Read from the installed package (nothing is fetched).
const PDFJS_DIR = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const CMAP_URL = `${path.join(PDFJS_DIR, 'cmaps')}/`;
const STANDARD_FONTS_URL = `${path.join(PDFJS_DIR, 'standard_fonts')}/`;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;

/** Each listed page's text pieces in content order. */
export async function pageTextPieces(bytes: Uint8Array, pageNumbers: Iterable<number>): Promise<Map<number, TextPiece[]>> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const { getDocument } = await pdfjs;
  const doc = await getDocument({ data: bytes.slice(), isEvalSupported: false, useWorkerFetch: false, useSystemFonts: false, disableFontFace: true, verbosity: 0, cMapUrl: CMAP_URL, cMapPacked: true, standardFontDataUrl: STANDARD_FONTS_URL }).promise;
  const out = new Map<number, TextPiece[]>();
  try {
    for (const n of pageNumbers) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const pieces: TextPiece[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = item.transform as number[];
        const size = Math.hypot(a, b) || item.height || 8;
        // The text's direction (a, b) and its "up" (c, d), as unit vectors in page space.
        const dir: [number, number] = size > 0 && Math.hypot(a, b) > 0 ? [a / Math.hypot(a, b), b / Math.hypot(a, b)] : [1, 0];
        const upLen = Math.hypot(c, d);
        const up: [number, number] = upLen > 0 ? [c / upLen, d / upLen] : [-dir[1], dir[0]];
        // Where each character starts, as a share of the piece's width (one entry per UTF-16 unit).
        const starts = [0];
        for (const ch of item.str) {
          const w = charWeight(ch);
          for (let k = 0; k < ch.length; k++) starts.push(starts[starts.length - 1]! + (k === ch.length - 1 ? w : 0));
        }
        const total = starts[starts.length - 1] || 1;
        const width = item.width;
        pieces.push({
          str: item.str,
          eol: item.hasEOL,
          boxOf(from: number, to: number): Box {
            const s = (width * starts[Math.max(0, Math.min(from, starts.length - 1))]!) / total;
            const t = (width * starts[Math.max(0, Math.min(to, starts.length - 1))]!) / total;
            const low = -DESCENT * size;
            const corners = [
              [e + dir[0] * s + up[0] * low, f + dir[1] * s + up[1] * low],
              [e + dir[0] * t + up[0] * low, f + dir[1] * t + up[1] * low],
              [e + dir[0] * s + up[0] * size, f + dir[1] * s + up[1] * size],
              [e + dir[0] * t + up[0] * size, f + dir[1] * t + up[1] * size],
            ].map(([x, y]) => viewport.convertToViewportPoint(x!, y!) as [number, number]);
            const xs = corners.map((p) => p[0]);
            const ys = corners.map((p) => p[1]);
            return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
          },
        });
      }
      out.set(n, pieces);
      page.cleanup();
    }
  } finally {
    await doc.destroy();
  }
  return out;
}
