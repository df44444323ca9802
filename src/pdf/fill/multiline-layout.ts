// Multiline text: pdf-lib breaks lines only at spaces, so Chinese or Japanese answers ran off the
// field's right edge, and text longer than the box was cut off at its bottom. Here the lines are
// broken by wrap-lines.ts and the size is lowered until they all fit (text-appearance.ts draws them).
import { adjustDimsForRotation, reduceRotation, type PDFWidgetAnnotation } from '@cantoo/pdf-lib';
import type { TextMetrics } from './value-font.js';
import { lineBreaker, type LineBreaker } from './wrap-lines.js';

export const MIN_SIZE = 4;
// pdf-lib's line pitch in form fields: the font's height plus a fifth.
const PITCH = 1.2;
// pdf-lib wraps a line that is not strictly narrower than the box, and a line's width is measured as
// the sum of its pieces (kerning between them ignored): keep clear of the edge.
const slack = (width: number): number => width * 0.995 - 0.01;

/** The area pdf-lib lays a field's text out in: inside the border and a 1 pt padding, turned upright. */
export function textArea(widget: PDFWidgetAnnotation): { width: number; height: number } {
  const rotation = reduceRotation(widget.getAppearanceCharacteristics()?.getRotation());
  const { width, height } = adjustDimsForRotation(widget.getRectangle(), rotation);
  const inset = 2 * ((widget.getBorderStyle()?.getWidth() ?? 0) + 1);
  return { width: width - inset, height: height - inset };
}

// Pieces are measured at 1 pt (widths scale with size) once per font and text: sizing tries many
// sizes, and the appearance breaks the same text again.
const breakers = new WeakMap<TextMetrics, Map<string, LineBreaker>>();
function breakerFor(font: TextMetrics, text: string): LineBreaker {
  let byText = breakers.get(font);
  if (!byText) breakers.set(font, (byText = new Map()));
  let breaker = byText.get(text);
  if (!breaker) byText.set(text, (breaker = lineBreaker(text, (s) => font.widthOfTextAtSize(s, 1))));
  return breaker;
}

/** `text` broken into lines that fit `width` at `size`. */
export function linesAt(font: TextMetrics, text: string, size: number, width: number): string[] {
  return breakerFor(font, text)(slack(width) / size);
}

/** How tall `count` lines at `size` stand: pdf-lib's field layout, or our own drawing's (draw-flat.ts). */
export type BlockHeight = (font: TextMetrics, count: number, size: number) => number;
// pdf-lib puts line n's baseline n pitches below the top, so the last line's descenders hang one
// descent below n pitches: without it, a box filled to the last pitch has them cross the padding.
export const fieldBlockHeight: BlockHeight = (font, count, size) =>
  count * font.heightAtSize(size) * PITCH + (font.heightAtSize(size) - font.heightAtSize(size, { descender: false }));

/** `start`, or the largest size below it (in half points, down to 4 pt) at which the broken text fits. */
export function fitLines(
  font: TextMetrics, text: string, area: { width: number; height: number }, start: number, blockHeight: BlockHeight = fieldBlockHeight,
): { size: number; lines: string[] } {
  let size = start;
  for (;;) {
    const lines = linesAt(font, text, size, area.width);
    if (size <= MIN_SIZE || blockHeight(font, lines.length, size) <= area.height) return { size, lines };
    size = Math.max(MIN_SIZE, size - 0.5);
  }
}
