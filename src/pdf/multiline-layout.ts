// Multiline AcroForm text: pdf-lib breaks lines only at spaces, so Chinese or Japanese answers ran off
// the field's right edge, and text longer than the box was cut off at its bottom. Here the lines are
// broken by wrapLines and the size is lowered until they all fit; pdf-lib still draws the appearance,
// from the pre-broken lines, while the field's value stays exactly what was filled in.
import {
  adjustDimsForRotation, defaultTextFieldAppearanceProvider, reduceRotation,
  type AppearanceProviderFor, type PDFFont, type PDFTextField, type PDFWidgetAnnotation,
} from '@cantoo/pdf-lib';
import { wrapLines } from './wrap-lines.js';

const MIN_SIZE = 4;
// pdf-lib's line pitch: the font's height plus a fifth.
const LINE_PITCH = 1.2;
// pdf-lib wraps a line that is not strictly narrower than the box; stay clear of that edge.
const EDGE = 0.01;

/** The area pdf-lib lays a field's text out in: inside the border and a 1 pt padding, turned upright. */
export function textArea(widget: PDFWidgetAnnotation): { width: number; height: number } {
  const rotation = reduceRotation(widget.getAppearanceCharacteristics()?.getRotation());
  const { width, height } = adjustDimsForRotation(widget.getRectangle(), rotation);
  const inset = 2 * ((widget.getBorderStyle()?.getWidth() ?? 0) + 1);
  return { width: width - inset, height: height - inset };
}

const linesAt = (font: PDFFont, text: string, size: number, width: number): string[] =>
  wrapLines(text, (s) => font.widthOfTextAtSize(s, size), width - EDGE);

/** `start`, or the largest size below it (in half points, down to 4 pt) at which the wrapped text fits. */
export function multilineSize(font: PDFFont, text: string, area: { width: number; height: number }, start: number): number {
  let size = start;
  while (size > MIN_SIZE && linesAt(font, text, size, area.width).length * font.heightAtSize(size) * LINE_PITCH > area.height) {
    size = Math.max(MIN_SIZE, size - 0.5);
  }
  return size;
}

/**
 * pdf-lib's own text field appearance, given the value already broken into lines at the size in the
 * field's /DA (which pdf-lib reads the same way: the last `/Font size Tf`, the widget's before the field's).
 */
export function wrappedAppearance(daSize: (da: string | undefined) => number | undefined): AppearanceProviderFor<PDFTextField> {
  return (field, widget, font) => {
    const size = daSize(widget.getDefaultAppearance()) ?? daSize(field.acroField.getDefaultAppearance());
    const text = field.getText() ?? '';
    if (!field.isMultiline() || field.isCombed() || !size) return defaultTextFieldAppearanceProvider(field, widget, font);
    const broken = linesAt(font, text, size, textArea(widget).width).join('\n');
    const view = new Proxy(field, {
      get: (target, key) => (key === 'getText' ? () => broken : Reflect.get(target, key, target) as unknown),
    });
    return defaultTextFieldAppearanceProvider(view, widget, font);
  };
}
