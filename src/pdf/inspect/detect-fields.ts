// Turns a document's AcroForm into FieldDefs: one per data field, placed at its first visible widget.
import {
  PDFArray, PDFButton, PDFCheckBox, PDFDict, PDFDropdown, PDFHexString, PDFName, PDFNumber,
  PDFOptionList, PDFRadioGroup, PDFSignature, PDFString, PDFTextField,
  type PDFDocument, type PDFField, type PDFForm, type PDFPage,
} from '@cantoo/pdf-lib';
import type { FieldDef } from '../field.js';
import { radioChoices, selectChoices } from '../shared/field-options.js';
import { displaySize, rectToTopLeft, type Rect } from '../shared/page-geometry.js';
import { labelFromTooltip } from './label-rules.js';
import { xfaLabels } from './xfa-labels.js';

interface Placement { pageNumber: number; rect: Rect }

function widgetPages(pages: readonly PDFPage[]): Map<PDFDict, number> {
  const byWidget = new Map<PDFDict, number>();
  pages.forEach((page, index) => {
    const annots = page.node.Annots();
    for (let i = 0; annots && i < annots.size(); i++) {
      const annot = annots.lookup(i);
      if (annot instanceof PDFDict && !byWidget.has(annot)) byWidget.set(annot, index);
    }
  });
  return byWidget;
}

function cornersOf(widget: PDFDict): [number, number, number, number] | undefined {
  const rect = widget.lookup(PDFName.of('Rect'));
  if (!(rect instanceof PDFArray) || rect.size() !== 4) return undefined;
  const nums = rect.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : Number.NaN));
  return nums.every(Number.isFinite) ? (nums as [number, number, number, number]) : undefined;
}

// A field may have several widgets, some parked outside the page (the JLPT form keeps copies
// above the top edge). The field is placed at its earliest visible widget, clipped to the page.
// Widgets missing from every page's /Annots are invisible in viewers, so /P is only a fallback.
function placementOf(field: PDFField, pages: readonly PDFPage[], byWidget: Map<PDFDict, number>): Placement | undefined {
  let best: Placement | undefined;
  for (const widget of field.acroField.getWidgets()) {
    let index = byWidget.get(widget.dict);
    if (index === undefined) {
      const p = widget.P();
      index = p ? pages.findIndex((page) => page.ref === p) : -1;
    }
    const page = pages[index];
    const corners = cornersOf(widget.dict);
    if (!page || !corners || (best && best.pageNumber <= index + 1)) continue;
    const rect = clipToPage(rectToTopLeft(page, corners), displaySize(page));
    if (rect) best = { pageNumber: index + 1, rect };
  }
  return best;
}

function clipToPage(r: Rect, size: { width: number; height: number }): Rect | undefined {
  const x = Math.max(0, r.x);
  const y = Math.max(0, r.y);
  const width = Math.min(size.width, r.x + r.width) - x;
  const height = Math.min(size.height, r.y + r.height) - y;
  const round2 = (n: number): number => Math.round(n * 100) / 100;
  return width > 0 && height > 0 ? { x: round2(x), y: round2(y), width: round2(width), height: round2(height) } : undefined;
}

function tooltip(field: PDFField): string | undefined {
  const tu = field.acroField.dict.lookup(PDFName.of('TU'));
  const text = tu instanceof PDFString || tu instanceof PDFHexString ? tu.decodeText().trim() : '';
  // Some authoring tools write a script's "undefined" as the tooltip (the DS-11 has 13): no label.
  return text === '' || text === 'undefined' || text === 'null' ? undefined : text;
}

type Typed = Pick<FieldDef, 'type' | 'options' | 'multiline' | 'max_length'>;

function typeOf(field: PDFField): Typed | 'button' | 'unsupported' {
  if (field instanceof PDFButton) return 'button';
  if (field instanceof PDFTextField) {
    const typed: Typed = { type: 'text' };
    if (field.isMultiline()) typed.multiline = true;
    const max = field.getMaxLength();
    if (max !== undefined && max > 0) typed.max_length = max;
    return typed;
  }
  if (field instanceof PDFCheckBox) return { type: 'checkbox' };
  if (field instanceof PDFSignature) return { type: 'signature' };
  if (field instanceof PDFRadioGroup) return { type: 'radio', options: radioChoices(field).map((c) => c.readable) };
  if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
    return { type: 'select', options: selectChoices(field).map((c) => c.readable) };
  }
  return 'unsupported';
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function detectFields(doc: PDFDocument, form: PDFForm): { fields: FieldDef[]; warnings: string[] } {
  const pages = doc.getPages();
  const byWidget = widgetPages(pages);
  const fields: FieldDef[] = [];
  const names = new Set<string>();
  // What the PDF says of a field: its /TU, else the XFA template's tooltip for the same path.
  const xfa = form.hasXFA() ? xfaLabels(doc) : new Map<string, string>();
  const skipped = { buttons: 0, unplaced: [] as string[], noOptions: [] as string[], unsupported: [] as string[], duplicate: [] as string[] };
  for (const field of form.getFields()) {
    const name = field.getName();
    const typed = typeOf(field);
    if (typed === 'button') { skipped.buttons++; continue; }
    if (typed === 'unsupported') { skipped.unsupported.push(name); continue; }
    if (typed.options?.length === 0) { skipped.noOptions.push(name); continue; }
    if (names.has(name)) { skipped.duplicate.push(name); continue; }
    const placement = placementOf(field, pages, byWidget);
    if (!placement) { skipped.unplaced.push(name); continue; }
    names.add(name);
    const label = labelFromTooltip(name, tooltip(field)) ?? xfa.get(name);
    fields.push({
      name,
      type: typed.type,
      ...(label === undefined ? {} : { label }),
      required: field.isRequired(),
      signer: 1,
      page: placement.pageNumber,
      ...placement.rect,
      ...(typed.options ? { options: typed.options } : {}),
      ...(typed.multiline ? { multiline: true } : {}),
      ...(typed.max_length === undefined ? {} : { max_length: typed.max_length }),
    });
  }
  const warnings: string[] = [];
  if (skipped.buttons > 0) {
    warnings.push(`Skipped ${plural(skipped.buttons, 'push button')} (such as Print or Reset): buttons hold no data.`);
  }
  const list = (names: string[]): string => names.slice(0, 5).map((n) => `"${n}"`).join(', ') + (names.length > 5 ? ', …' : '');
  if (skipped.unplaced.length) warnings.push(`Skipped ${plural(skipped.unplaced.length, 'field')} that appear on no page: ${list(skipped.unplaced)}.`);
  if (skipped.noOptions.length) warnings.push(`Skipped ${plural(skipped.noOptions.length, 'choice field')} without options: ${list(skipped.noOptions)}.`);
  if (skipped.unsupported.length) warnings.push(`Skipped ${plural(skipped.unsupported.length, 'field')} of an unknown kind: ${list(skipped.unsupported)}.`);
  if (skipped.duplicate.length) warnings.push(`Skipped ${plural(skipped.duplicate.length, 'field')} whose name was already used: ${list(skipped.duplicate)}.`);
  return { fields, warnings };
}
