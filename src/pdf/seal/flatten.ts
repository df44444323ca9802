// Flattening: every widget's current appearance (as the renderer drew it, in whatever font it took)
// becomes page content, and the widgets and the AcroForm go. The appearance is placed as a viewer
// would show it (PDF 32000 12.5.5: its BBox, through its Matrix, mapped onto the widget's Rect), so
// nothing moves; hidden widgets stay hidden.
import {
  concatTransformationMatrix, drawObject, popGraphicsState, pushGraphicsState,
  PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, PDFStream, type PDFDocument, type PDFObject, type PDFOperator, type PDFPage,
} from '@cantoo/pdf-lib';

const HIDDEN = 1 << 1;
const NO_VIEW = 1 << 5;
const N = (name: string) => PDFName.of(name);

function numbers(arr: PDFArray | undefined, count: number): number[] | undefined {
  if (!arr || arr.size() !== count) return undefined;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const n = arr.lookup(i);
    if (!(n instanceof PDFNumber)) return undefined;
    out.push(n.asNumber());
  }
  return out;
}

/** The widget's normal appearance for its current state (/AS picks one of several). */
function appearanceOf(doc: PDFDocument, widget: PDFDict): PDFRef | undefined {
  const ap = widget.lookupMaybe(N('AP'), PDFDict);
  const normal = ap?.get(N('N'));
  if (normal instanceof PDFRef && doc.context.lookup(normal) instanceof PDFStream) return normal;
  // Otherwise a dictionary of states (checkboxes, radio buttons), direct or referenced.
  const states = normal instanceof PDFDict ? normal : normal instanceof PDFRef ? doc.context.lookupMaybe(normal, PDFDict) : undefined;
  const state = widget.lookupMaybe(N('AS'), PDFName);
  const chosen = states && state ? states.get(state) : undefined;
  return chosen instanceof PDFRef && doc.context.lookup(chosen) instanceof PDFStream ? chosen : undefined;
}

type Matrix = [number, number, number, number, number, number];
type Quad = [number, number, number, number];

/** The matrix that maps the appearance's (transformed) BBox onto the widget's Rect. */
function placement(stream: PDFDict, widget: PDFDict): Matrix | undefined {
  const rect = numbers(widget.lookupMaybe(N('Rect'), PDFArray), 4) as Quad | undefined;
  const bbox = numbers(stream.lookupMaybe(N('BBox'), PDFArray), 4) as Quad | undefined;
  if (!rect || !bbox) return undefined;
  const [a, b, c, d, e, f] = (numbers(stream.lookupMaybe(N('Matrix'), PDFArray), 6) ?? [1, 0, 0, 1, 0, 0]) as Matrix;
  const corners: Array<[number, number]> = [[bbox[0], bbox[1]], [bbox[2], bbox[1]], [bbox[0], bbox[3]], [bbox[2], bbox[3]]];
  const xs = corners.map(([x, y]) => a * x + c * y + e);
  const ys = corners.map(([x, y]) => b * x + d * y + f);
  const [bx0, bx1, by0, by1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const [rx0, rx1, ry0, ry1] = [Math.min(rect[0], rect[2]), Math.max(rect[0], rect[2]), Math.min(rect[1], rect[3]), Math.max(rect[1], rect[3])];
  if (bx1 - bx0 <= 0 || by1 - by0 <= 0 || rx1 - rx0 <= 0 || ry1 - ry0 <= 0) return undefined;
  const sx = (rx1 - rx0) / (bx1 - bx0);
  const sy = (ry1 - ry0) / (by1 - by0);
  return [sx, 0, 0, sy, rx0 - sx * bx0, ry0 - sy * by0];
}

// pdf-lib wraps a page's existing content in q … Q before it adds any (PDFPageLeaf.normalize), so
// what that content leaves in the graphics state does not shift what is drawn here.
export function flattenForm(doc: PDFDocument, pages: readonly PDFPage[]): void {
  const ctx = doc.context;
  const resources = doc.catalog.lookupMaybe(N('AcroForm'), PDFDict)?.lookupMaybe(N('DR'), PDFDict);
  for (const page of pages) {
    const annots = page.node.Annots();
    if (!annots) continue;
    const kept: PDFObject[] = [];
    const operators: PDFOperator[] = [];
    for (let i = 0; i < annots.size(); i++) {
      const ref = annots.get(i);
      const annot = ctx.lookup(ref);
      if (!(annot instanceof PDFDict) || annot.lookup(N('Subtype')) !== N('Widget')) {
        kept.push(ref);
        continue;
      }
      const flags = annot.lookupMaybe(N('F'), PDFNumber)?.asNumber() ?? 0;
      const appearance = flags & (HIDDEN | NO_VIEW) ? undefined : appearanceOf(doc, annot);
      const stream = appearance ? ctx.lookup(appearance) : undefined;
      if (!appearance || !(stream instanceof PDFStream)) continue;
      const matrix = placement(stream.dict, annot);
      if (!matrix) continue;
      // Drawn with Do, the stream must be a form XObject; some writers leave that implicit, and a few
      // rely on the form's default resources instead of their own.
      stream.dict.set(N('Type'), N('XObject'));
      stream.dict.set(N('Subtype'), N('Form'));
      if (!stream.dict.has(N('Resources')) && resources) stream.dict.set(N('Resources'), resources);
      const name = page.node.newXObject('Flat', appearance);
      operators.push(pushGraphicsState(), concatTransformationMatrix(...matrix), drawObject(name), popGraphicsState());
    }
    if (kept.length > 0) page.node.set(N('Annots'), ctx.obj(kept));
    else page.node.delete(N('Annots'));
    if (operators.length > 0) page.pushOperators(...operators);
  }
  doc.catalog.delete(N('AcroForm'));
}
