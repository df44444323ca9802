// Appearances of filled text fields. pdf-lib draws them (background, border, clipping, alignment),
// given two things it cannot do alone: multiline values already broken into lines (multiline-layout.ts),
// and values whose characters need more than one font (value-font.ts), whose lines it lays out with
// the mixed text's real widths and which are then shown run by run, each in its own font.
import {
  cleanText, defaultTextFieldAppearanceProvider, PDFDict, PDFName, PDFRef, PDFStream, setFontAndSize, showText,
  type AppearanceProviderFor, type PDFFont, type PDFOperator, type PDFTextField, type PDFWidgetAnnotation,
} from '@cantoo/pdf-lib';
import { linesAt, textArea } from './multiline-layout.js';
import type { ValueFont } from './value-font.js';

/** A stand-in for the primary font that measures like the whole value (pdf-lib lays out with it). */
function measuredAs(primary: PDFFont, value: ValueFont): PDFFont {
  return new Proxy(primary, {
    get: (target, key) => {
      if (key === 'widthOfTextAtSize') return (text: string, size: number) => value.widthOfTextAtSize(text, size);
      if (key === 'heightAtSize') return (size: number, options?: { descender?: boolean }) => value.heightAtSize(size, options);
      return Reflect.get(target, key, target) as unknown;
    },
  });
}

/** Each line's single-font "show text" swapped for its runs, each shown in its own font. */
function inRuns(operators: PDFOperator[], lines: readonly string[], value: ValueFont, size: number): PDFOperator[] {
  const primary = value.primary;
  const byShown = new Map<string, PDFOperator[]>();
  for (const line of lines) {
    const runs = value.runs(line).flatMap((run) => [setFontAndSize(run.font.name, size), showText(run.font.encodeText(run.text))]);
    byShown.set(showText(primary.encodeText(line)).toString(), [...runs, setFontAndSize(primary.name, size)]);
  }
  return operators.flatMap((op) => byShown.get(op.toString()) ?? [op]);
}

/**
 * The appearance provider for one filled value. `daSize` reads the size from a /DA as pdf-lib does
 * (the last `/Font size Tf`, the widget's before the field's); fill-acroform.ts has set it already.
 */
export function textAppearance(value: ValueFont, daSize: (da: string | undefined) => number | undefined): AppearanceProviderFor<PDFTextField> {
  return (field, widget, font) => {
    const size = daSize(widget.getDefaultAppearance()) ?? daSize(field.acroField.getDefaultAppearance());
    if (field.isCombed() || !size) return defaultTextFieldAppearanceProvider(field, widget, value.primary);
    const text = cleanText(field.getText() ?? '');
    const lines = field.isMultiline() ? linesAt(value, text, size, textArea(widget).width) : [text];
    const view = field.isMultiline()
      ? new Proxy(field, { get: (target, key) => (key === 'getText' ? () => lines.join('\n') : Reflect.get(target, key, target) as unknown) })
      : field;
    if (!value.mixed) return defaultTextFieldAppearanceProvider(view, widget, font);
    const operators = defaultTextFieldAppearanceProvider(view, widget, measuredAs(value.primary, value));
    return inRuns(Array.isArray(operators) ? operators : (operators.normal as PDFOperator[]), lines, value, size);
  };
}

/** Lists the value's other fonts in each widget's appearance stream, whose resources name only the primary. */
export function addFontResources(widgets: readonly PDFWidgetAnnotation[], fonts: readonly PDFFont[]): void {
  if (fonts.length === 0) return;
  for (const widget of widgets) {
    const normal = widget.getNormalAppearance();
    const stream = normal instanceof PDFRef ? widget.dict.context.lookup(normal) : normal;
    if (!(stream instanceof PDFStream)) continue;
    const context = widget.dict.context;
    let resources = stream.dict.lookupMaybe(PDFName.of('Resources'), PDFDict);
    if (!resources) stream.dict.set(PDFName.of('Resources'), (resources = context.obj({})));
    let fontDict = resources.lookupMaybe(PDFName.of('Font'), PDFDict);
    if (!fontDict) resources.set(PDFName.of('Font'), (fontDict = context.obj({})));
    for (const font of fonts) fontDict.set(PDFName.of(font.name), font.ref);
  }
}
