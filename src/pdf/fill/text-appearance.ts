// Appearances of filled text fields (and of dropdowns and list boxes). pdf-lib draws them (background, border, clipping, alignment),
// given two things it cannot do alone: multiline values already broken into lines (multiline-layout.ts),
// and values whose characters need more than one font (value-font.ts), whose lines it lays out with
// the mixed text's real widths and which are then shown run by run, each in its own font.
import {
  cleanText, defaultDropdownAppearanceProvider, defaultOptionListAppearanceProvider, defaultTextFieldAppearanceProvider,
  PDFDict, PDFDropdown, PDFName, PDFRef, PDFStream, setFontAndSize, showText,
  type AppearanceMapping, type AppearanceProviderFor, type PDFFont, type PDFOperator, type PDFOptionList,
  type PDFTextField, type PDFWidgetAnnotation,
} from '@cantoo/pdf-lib';
import { needsBidi, textDirection, visualPieces, type Direction } from '../shared/bidi-layout.js';
import { linesAt, textArea } from './multiline-layout.js';
import type { ValueFont } from './value-font.js';

/**
 * A stand-in for the primary font that measures like the whole value (pdf-lib lays out with it) and
 * notes the text behind every string it encodes, so each "show text" can be redrawn in runs whatever
 * lines, cells or cuts pdf-lib made.
 */
function measuredAs(value: ValueFont, shown: Map<string, string>): PDFFont {
  return new Proxy(value.primary, {
    get: (target, key) => {
      if (key === 'widthOfTextAtSize') return (text: string, size: number) => value.widthOfTextAtSize(text, size);
      if (key === 'heightAtSize') return (size: number, options?: { descender?: boolean }) => value.heightAtSize(size, options);
      if (key === 'encodeText') {
        return (text: string) => {
          const encoded = target.encodeText(text);
          shown.set(showText(encoded).toString(), text);
          return encoded;
        };
      }
      return Reflect.get(target, key, target) as unknown;
    },
  });
}

/**
 * Each single-font "show text" swapped for its text's pieces in visual order (bidi-layout.ts), each
 * shown in its own font. `base` is the paragraph direction (a text field's whole value); without it,
 * each shown string's own (a list box's options).
 */
function inRuns(operators: PDFOperator[], shown: ReadonlyMap<string, string>, value: ValueFont, size: number, base?: Direction): PDFOperator[] {
  const back = setFontAndSize(value.primary.name, size);
  return operators.flatMap((op) => {
    const text = shown.get(op.toString());
    if (text === undefined) return [op];
    const pieces = visualPieces(text, base ?? textDirection(text), (t) => value.runs(t));
    return [...pieces.flatMap((run) => [setFontAndSize(run.font.name, size), showText(run.font.encodeText(run.text))]), back];
  });
}

type DaSize = (da: string | undefined) => number | undefined;

/** The font size a widget is drawn at: its own /DA's, else its field's (as pdf-lib reads them). */
function sizeIn(daSize: DaSize, field: PDFTextField | PDFDropdown | PDFOptionList, widget: PDFWidgetAnnotation): number | undefined {
  return daSize(widget.getDefaultAppearance()) ?? daSize(field.acroField.getDefaultAppearance());
}

/**
 * The appearance provider for one filled value. `daSize` reads the size from a /DA as pdf-lib does
 * (the last `/Font size Tf`, the widget's before the field's); fill-acroform.ts has set it already,
 * except for comb fields, which pdf-lib sizes itself.
 */
export function textAppearance(value: ValueFont, daSize: DaSize): AppearanceProviderFor<PDFTextField> {
  const sizeOf = (field: PDFTextField, widget: PDFWidgetAnnotation) => sizeIn(daSize, field, widget);
  return (field, widget, font) => {
    const size = sizeOf(field, widget);
    const text = field.getText() ?? '';
    let view = field;
    if (field.isMultiline() && !field.isCombed() && size) {
      const broken = linesAt(value, cleanText(text), size, textArea(widget).width).join('\n');
      view = new Proxy(field, { get: (target, key) => (key === 'getText' ? () => broken : Reflect.get(target, key, target) as unknown) });
    }
    if (!value.mixed && !needsBidi(text)) return defaultTextFieldAppearanceProvider(view, widget, font);
    return drawnInRuns(value, (stand) => defaultTextFieldAppearanceProvider(view, widget, stand), () => sizeOf(field, widget) ?? size ?? 0, textDirection(text));
  };
}

/**
 * pdf-lib's drawing (`draw`) with the measuring, recording stand-in for the primary font, then each
 * shown string redrawn in runs at the size pdf-lib drew at (`drawnSize`, read once it has drawn).
 */
function drawnInRuns(
  value: ValueFont, draw: (stand: PDFFont) => AppearanceMapping<PDFOperator[]> | PDFOperator[], drawnSize: () => number, base?: Direction,
): PDFOperator[] {
  const shown = new Map<string, string>();
  const drawn = draw(measuredAs(value, shown));
  return inRuns(Array.isArray(drawn) ? drawn : drawn.normal, shown, value, drawnSize(), base);
}

/** The same for dropdowns and list boxes: the selection, or every option, in runs when mixed. */
export function choiceAppearance(
  value: ValueFont,
  daSize: DaSize,
): (field: PDFDropdown | PDFOptionList, widget: PDFWidgetAnnotation, font: PDFFont) => AppearanceMapping<PDFOperator[]> | PDFOperator[] {
  return (field, widget, font) => {
    const draw = (stand: PDFFont) =>
      field instanceof PDFDropdown ? defaultDropdownAppearanceProvider(field, widget, stand) : defaultOptionListAppearanceProvider(field, widget, stand);
    const shown = field instanceof PDFDropdown ? field.getSelected() : field.getOptions();
    if (!value.mixed && !shown.some(needsBidi)) return draw(font);
    return drawnInRuns(value, draw, () => sizeIn(daSize, field, widget) ?? 0);
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
