// Labels for fields the PDF says nothing about: the nearest printed text to the field's left on its
// line, or just above it (how people read a paper form). pdf.js reads the page's text; it runs in the
// inspector's worker thread, so a slow page costs that job's time budget, not the server's.
import type { FieldDef } from '../field.js';

interface Placed { text: string; left: number; right: number; top: number; bottom: number }

/** How far (PDF points) a label may sit from its field. */
const MAX_GAP = 48;
/** Text that labels nothing: leaders, rules, lone punctuation. */
const FILLER = /^[\s_.\-–—:*()[\]…]*$/;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;

async function pageTexts(bytes: Uint8Array, pageNumbers: ReadonlySet<number>): Promise<Map<number, Placed[]>> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const { getDocument } = await pdfjs;
  const doc = await getDocument({ data: bytes.slice(), isEvalSupported: false, useWorkerFetch: false, useSystemFonts: false, disableFontFace: true, verbosity: 0 }).promise;
  const out = new Map<number, Placed[]>();
  try {
    for (const n of pageNumbers) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const placed: Placed[] = [];
      for (const item of content.items) {
        if (!('str' in item) || FILLER.test(item.str)) continue;
        const [a = 0, b = 0, , , e = 0, f = 0] = item.transform as number[];
        const size = Math.hypot(a, b) || item.height || 8;
        // Page space (origin bottom-left) to the fields' space (origin top-left of the shown page).
        const [x0, y0] = viewport.convertToViewportPoint(e, f) as [number, number];
        const [x1, y1] = viewport.convertToViewportPoint(e + item.width, f + size) as [number, number];
        placed.push({ text: item.str.replace(/\s+/g, ' ').trim(), left: Math.min(x0, x1), right: Math.max(x0, x1), top: Math.min(y0, y1), bottom: Math.max(y0, y1) });
      }
      out.set(n, placed);
      page.cleanup();
    }
  } finally {
    await doc.destroy();
  }
  return out;
}

/** The text nearest to the field's left (same line) or above it (overlapping columns), if any. */
export function nearestText(field: Pick<FieldDef, 'x' | 'y' | 'width' | 'height'>, texts: readonly Placed[]): string | undefined {
  let best: { text: string; gap: number } | undefined;
  const bottom = field.y + field.height;
  const right = field.x + field.width;
  for (const t of texts) {
    const sameLine = t.bottom > field.y && t.top < bottom;
    const leftGap = field.x - t.right;
    const aboveGap = field.y - t.bottom;
    let gap: number | undefined;
    if (sameLine && leftGap >= -2) gap = Math.max(0, leftGap);
    else if (t.right > field.x && t.left < right && aboveGap >= -2) gap = Math.max(0, aboveGap) + 1; // left wins a tie
    if (gap !== undefined && gap <= MAX_GAP && (!best || gap < best.gap)) best = { text: t.text, gap };
  }
  return best?.text.replace(/[\s:*]+$/, '') || undefined;
}

/** Fills `label` of every field without one from the page's text; leaves the rest as they are. */
export async function labelFromNearbyText(bytes: Uint8Array, fields: FieldDef[]): Promise<void> {
  const unlabelled = fields.filter((f) => f.label === undefined);
  if (unlabelled.length === 0) return;
  let texts: Map<number, Placed[]>;
  try {
    texts = await pageTexts(bytes, new Set(unlabelled.map((f) => f.page)));
  } catch {
    return; // Labels are a help, never a reason to refuse a document pdf-lib could read.
  }
  for (const f of unlabelled) {
    const label = nearestText(f, texts.get(f.page) ?? []);
    if (label) f.label = label;
  }
}
