// Values for fields that exist only as FieldDefs (flat PDFs whose fields were given as JSON) are
// drawn onto the page inside the field's rectangle.
import { cleanText, degrees, rgb, type Color, type PDFDocument, type PDFPage } from '@cantoo/pdf-lib';
import type { FieldDef, FieldValue } from '../field.js';
import { isChecked } from './checkbox-value.js';
import type { DocumentFonts } from './fonts.js';
import { pointFromTopLeft } from '../shared/page-geometry.js';
import { textDirection, visualPieces, type Direction } from '../shared/bidi-layout.js';
import { fitLines, MIN_SIZE, type BlockHeight } from './multiline-layout.js';
import type { TextMetrics, ValueFont } from './value-font.js';

const PADDING = 2;
const MAX_SIZE = 12;
const INK = rgb(0, 0, 0);
const LINE_HEIGHT = 1.2;

function fitSingleLine(font: TextMetrics, text: string, def: FieldDef): number {
  const byHeight = (def.height - PADDING) / font.heightAtSize(1, { descender: true });
  const width = font.widthOfTextAtSize(text, 1);
  const byWidth = width > 0 ? (def.width - 2 * PADDING) / width : MAX_SIZE;
  return Math.max(MIN_SIZE, Math.min(MAX_SIZE, byHeight, byWidth));
}

// Lines drawn here: the first baseline one ascent below the top, then one line pitch each, so n lines
// stand an ascent, a descent and n - 1 pitches tall.
const drawnBlockHeight: BlockHeight = (font, count, size) => font.heightAtSize(size, { descender: true }) + (count - 1) * size * LINE_HEIGHT;

export async function drawFlatField(doc: PDFDocument, def: FieldDef, value: FieldValue, fonts: DocumentFonts): Promise<void> {
  const page = doc.getPages()[def.page - 1];
  if (!page) throw new RangeError(`Field "${def.name}" is on page ${def.page}, but the PDF has ${doc.getPageCount()} pages`);
  if (def.type === 'checkbox') {
    if (!isChecked(value)) return;
    const mark = '✓';
    const font = await fonts.forText(mark);
    const size = Math.max(MIN_SIZE, Math.min(def.width, def.height) * 0.9);
    const left = def.x + (def.width - font.widthOfTextAtSize(mark, size)) / 2;
    const baseline = def.y + (def.height + font.heightAtSize(size, { descender: false })) / 2;
    const at = pointFromTopLeft(page, left, baseline);
    page.drawText(mark, { x: at.x, y: at.y, size, font, color: INK, rotate: degrees(at.rotation) });
    return;
  }
  // As pdf-lib would draw it: tabs as spaces, no control characters (so measured and drawn widths agree).
  const text = cleanText(value === null || value === false ? '' : String(value));
  if (text.trim() === '') return;
  const font = await fonts.forValue(text);
  if (def.multiline) {
    const area = { width: def.width - 2 * PADDING, height: def.height - 2 * PADDING };
    const { size, lines } = fitLines(font, text, area, Math.max(MIN_SIZE, Math.min(10, area.height)), drawnBlockHeight);
    const at = pointFromTopLeft(page, def.x + PADDING, def.y + PADDING + font.heightAtSize(size, { descender: false }));
    // Each next line one pitch further "down" the (possibly turned) page.
    const turn = (at.rotation * Math.PI) / 180;
    // Every line in the value's direction (a Hebrew address broken after its house number stays Hebrew).
    const base = textDirection(text);
    lines.forEach((line, i) => {
      const drop = i * size * LINE_HEIGHT;
      drawLine(page, font, line, { x: at.x + drop * Math.sin(turn), y: at.y - drop * Math.cos(turn), rotation: at.rotation }, size, INK, base);
    });
    return;
  }
  const line = text.replace(/\s*(?:\r\n|[\n\f\r\v])\s*/g, ' ');
  const size = fitSingleLine(font, line, def);
  // Centre the line vertically: the baseline sits half the glyph height below the box's middle.
  const baseline = def.y + (def.height + font.heightAtSize(size, { descender: false }) * 0.8) / 2;
  drawLine(page, font, line, pointFromTopLeft(page, def.x + PADDING, baseline), size);
}

/**
 * One line from its baseline origin, in visual order (bidi-layout.ts: right-to-left text with its
 * numbers left to right), run by run when the value needs several fonts. `base` is the direction of
 * the paragraph the line belongs to (by default the line's own).
 */
export function drawLine(
  page: PDFPage, font: ValueFont, line: string, at: { x: number; y: number; rotation: number }, size: number, color: Color = INK,
  base: Direction = textDirection(line),
): void {
  const turn = (at.rotation * Math.PI) / 180;
  let { x, y } = at;
  for (const run of visualPieces(line, base, (text) => font.runs(text))) {
    page.drawText(run.text, { x, y, size, font: run.font, color, rotate: degrees(at.rotation) });
    const advance = run.font.widthOfTextAtSize(run.text, size);
    x += advance * Math.cos(turn);
    y += advance * Math.sin(turn);
  }
}
