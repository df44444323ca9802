// Text tags found, made into fields and covered on the page (issue 41), inside the inspector's worker
// thread. pdf.js reads the pages' text only within the decode budget (text-budget.ts): a document over
// it gets no tags read, and says so.
import { rgb, type PDFDocument } from '@cantoo/pdf-lib';
import type { FieldDef } from '../field.js';
import { rectFromTopLeft } from '../shared/page-geometry.js';
import { pageTextPieces } from './page-text.js';
import { textFitsBudget } from './text-budget.js';
import { fieldsFromTags, findTextTags, type TaggedFields } from './text-tags.js';

/** Around the tag's glyphs (points, and a share of the line's height beside them), so no edge of a brace shows. */
const PAD = 1.5;
const SIDE_PAD = 0.1;
/** Pages read for tags at most: beyond, the sender is told. */
const MAX_PAGES = 500;

export interface CoveredTags extends TaggedFields {
  /** Whether any tag was covered (the document changed and must be saved). */
  covered: boolean;
}

const NONE: CoveredTags = { fields: [], roles: [], warnings: [], covered: false };

export async function coverTextTags(doc: PDFDocument, bytes: Uint8Array, existing: readonly FieldDef[]): Promise<CoveredTags> {
  const count = doc.getPageCount();
  const pages = Array.from({ length: Math.min(count, MAX_PAGES) }, (_, i) => i + 1);
  if (!textFitsBudget(doc, pages)) return NONE;
  let found;
  try {
    found = findTextTags(await pageTextPieces(bytes, pages));
  } catch {
    return NONE; // Tags are a help, never a reason to refuse a document pdf-lib could read.
  }
  if (found.tags.length === 0 && found.unread.length === 0) return NONE;
  const tagged = fieldsFromTags(found.tags, new Set(existing.map((f) => f.name)), found.unread);
  for (const tag of found.tags) {
    const page = doc.getPage(tag.page - 1);
    const box = tag.cover;
    const side = Math.max(PAD, SIDE_PAD * (box.bottom - box.top));
    page.drawRectangle({ ...rectFromTopLeft(page, { x: box.left - side, y: box.top - PAD, width: box.right - box.left + 2 * side, height: box.bottom - box.top + 2 * PAD }), color: rgb(1, 1, 1) });
  }
  if (count > MAX_PAGES) tagged.warnings.push(`Text tags were read on the first ${MAX_PAGES} pages only (this document has ${count}).`);
  return { ...tagged, covered: found.tags.length > 0 };
}
