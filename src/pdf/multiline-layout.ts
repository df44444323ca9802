// Multiline text: pdf-lib breaks lines only at spaces, so Chinese or Japanese answers ran off the
// field's right edge, and text longer than the box was cut off at its bottom. Here the lines are
// broken by wrap-lines.ts and the size is lowered until they all fit. For AcroForm fields pdf-lib still
// draws the appearance, from the pre-broken lines, while the field's value stays as filled in.
import {
  adjustDimsForRotation, defaultTextFieldAppearanceProvider, reduceRotation,
  type AppearanceProviderFor, type PDFFont, type PDFTextField, type PDFWidgetAnnotation,
} from '@cantoo/pdf-lib';
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
const breakers = new WeakMap<PDFFont, Map<string, LineBreaker>>();
function breakerFor(font: PDFFont, text: string): LineBreaker {
  let byText = breakers.get(font);
  if (!byText) breakers.set(font, (byText = new Map()));
  let breaker = byText.get(text);
  if (!breaker) byText.set(text, (breaker = lineBreaker(text, (s) => font.widthOfTextAtSize(s, 1))));
  return breaker;
}

/** `text` broken into lines that fit `width` at `size`. */
export function linesAt(font: PDFFont, text: string, size: number, width: number): string[] {
  return breakerFor(font, text)(slack(width) / size);
}

/** How tall `count` lines at `size` stand: pdf-lib's field layout, or our own drawing's (draw-flat.ts). */
export type BlockHeight = (font: PDFFont, count: number, size: number) => number;
export const fieldBlockHeight: BlockHeight = (font, count, size) => count * font.heightAtSize(size) * PITCH;

/** `start`, or the largest size below it (in half points, down to 4 pt) at which the broken text fits. */
export function fitLines(
  font: PDFFont, text: string, area: { width: number; height: number }, start: number, blockHeight: BlockHeight = fieldBlockHeight,
): { size: number; lines: string[] } {
  let size = start;
  for (;;) {
    const lines = linesAt(font, text, size, area.width);
    if (size <= MIN_SIZE || blockHeight(font, lines.length, size) <= area.height) return { size, lines };
    size = Math.max(MIN_SIZE, size - 0.5);
  }
}

/**
 * pdf-lib's own text field appearance, given the value already broken into lines at the size in the
 * field's /DA (which pdf-lib reads the same way: the last `/Font size Tf`, the widget's before the field's).
 */
export function wrappedAppearance(daSize: (da: string | undefined) => number | undefined): AppearanceProviderFor<PDFTextField> {
  return (field, widget, font) => {
    const size = daSize(widget.getDefaultAppearance()) ?? daSize(field.acroField.getDefaultAppearance());
    if (!field.isMultiline() || field.isCombed() || !size) return defaultTextFieldAppearanceProvider(field, widget, font);
    const broken = linesAt(font, field.getText() ?? '', size, textArea(widget).width).join('\n');
    const view = new Proxy(field, {
      get: (target, key) => (key === 'getText' ? () => broken : Reflect.get(target, key, target) as unknown),
    });
    return defaultTextFieldAppearanceProvider(view, widget, font);
  };
}
