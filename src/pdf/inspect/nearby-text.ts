// Labels for fields the PDF says nothing about: the nearest printed text to the field's left on its
// line, or just above it (how people read a paper form). pdf.js reads the page's text; it runs in the
// inspector's worker thread, so a slow page costs that job's time budget, not the server's.
import type { FieldDef } from '../field.js';
import { pageTextPieces } from './page-text.js';

interface Placed { text: string; left: number; right: number; top: number; bottom: number }

/** How far (PDF points) a label may sit from its field. */
const MAX_GAP = 48;
/** Text that labels nothing: leaders, rules, lone punctuation. */
const FILLER = /^[\s_.\-–—:*()[\]…]*$/;

async function pageTexts(bytes: Uint8Array, pageNumbers: ReadonlySet<number>): Promise<Map<number, Placed[]>> {
  const pieces = await pageTextPieces(bytes, pageNumbers);
  const out = new Map<number, Placed[]>();
  for (const [n, list] of pieces) {
    out.set(n, list.filter((p) => !FILLER.test(p.str)).map((p) => ({ text: p.str.replace(/\s+/g, ' ').trim(), ...p.boxOf(0, p.str.length) })));
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
