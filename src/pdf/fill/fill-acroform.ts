// Sets values through the AcroForm API (so they stay real field values, not drawn text) and
// regenerates each touched field's appearance with a font that can show the value.
import {
  cleanText, PDFCheckBox, PDFDropdown, PDFHexString, PDFOptionList, PDFRadioGroup, PDFTextField,
  type PDFField, type PDFWidgetAnnotation,
} from '@cantoo/pdf-lib';
import type { FieldValue } from '../field.js';
import { isChecked } from './checkbox-value.js';
import { findChoice, radioChoices, selectChoices } from '../shared/field-options.js';
import { fitLines, MIN_SIZE, textArea } from './multiline-layout.js';
import { addFontResources, choiceAppearance, textAppearance } from './text-appearance.js';
import type { TextMetrics } from './value-font.js';
import type { DocumentFonts } from './fonts.js';

const asText = (value: FieldValue): string => (value === null || value === false ? '' : String(value));

// pdf-lib's setText refuses text longer than /MaxLen (counted in UTF-16 units): cut it to fit.
function fitMaxLength(text: string, max: number | undefined): string {
  if (max === undefined || text.length <= max) return text;
  let out = '';
  for (const ch of text) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

// pdf-lib reads a /DA font size only after a non-empty font name; some producers omit the name.
const ANY_TF = /(\d*\.\d+|\d+)[\0\t\n\f\r ]+Tf/g;
const NAMED_TF = /\/[^\0\t\n\f\r ]+[\0\t\n\f\r ]+(\d*\.\d+|\d+)[\0\t\n\f\r ]+Tf/g;
function fontSizeIn(da: string | undefined, pattern: RegExp): number | undefined {
  const last = [...(da ?? '').matchAll(pattern)].pop();
  return last ? Number(last[1]) : undefined;
}
// A trailing Tf wins: pdf-lib uses the last one and rewrites the whole /DA when it draws.
const withFontSize = (da: string | undefined, size: number): string => `${da ?? '0 g'}\n/Helv ${size} Tf`;

const tenths = (size: number): number => Math.floor(size * 10) / 10;

// An auto-sized (0) field makes pdf-lib pick the largest size that fits the box, so a short answer
// in a tall box comes out huge. Such fields get an explicit size: 10 pt for multiline text (less in
// boxes too low for two lines), at most 12 pt for a single line, shrunk until the text fits.
// A field with its own size keeps it unless the text would not fit at that size: viewers clip a
// field's text at its edges, and a document about to be signed must show all of what it says.
function fontSizeFor(field: PDFTextField, font: TextMetrics, text: string, widget: PDFWidgetAnnotation, own: number): number {
  const area = textArea(widget);
  if (field.isMultiline()) {
    const start = own > 0 ? own : Math.min(10, Math.max(6, (area.height - 2) / 2.4));
    return tenths(fitLines(font, text, area, start).size);
  }
  const width = font.widthOfTextAtSize(text, 1);
  const byWidth = width > 0 ? (area.width - 2) / width : Infinity;
  if (own > 0) return byWidth < own ? Math.max(MIN_SIZE, tenths(byWidth)) : own;
  const byHeight = (area.height - 2) / font.heightAtSize(1);
  return tenths(Math.max(MIN_SIZE, Math.min(12, byHeight, byWidth)));
}

function fixFontSize(field: PDFTextField, font: TextMetrics, text: string): void {
  const widgets = field.acroField.getWidgets();
  // Widgets of one field can differ in size; each then gets its own /DA (pdf-lib reads it first).
  const perWidget = widgets.length > 1;
  for (const widget of widgets) {
    const ownDa = widget.getDefaultAppearance();
    const onWidget = fontSizeIn(ownDa, ANY_TF) !== undefined;
    const da = onWidget ? ownDa : field.acroField.getDefaultAppearance();
    const size = fontSizeIn(da, ANY_TF) ?? 0;
    const next = fontSizeFor(field, font, text, widget, size);
    if (next === size && fontSizeIn(da, NAMED_TF) === size) continue;
    if (onWidget || perWidget) widget.setDefaultAppearance(withFontSize(da, next));
    else field.acroField.setDefaultAppearance(withFontSize(da, next));
  }
}

const daSize = (da: string | undefined): number | undefined => fontSizeIn(da, NAMED_TF);

// Every character that pdf-lib would treat as a line break, with the spaces around it.
const SINGLE_LINE_BREAKS = /[ \t]*(?:\r\n|[\n\f\r\v\u2028\u2029])[ \t]*/g;

async function fillText(field: PDFTextField, value: FieldValue, fonts: DocumentFonts): Promise<void> {
  let text = asText(value);
  // A single-line field cannot show line breaks; viewers would print them as boxes or drop them.
  if (!field.isMultiline()) text = text.replace(SINGLE_LINE_BREAKS, ' ');
  text = fitMaxLength(text, field.getMaxLength());
  field.setText(text === '' ? undefined : text);
  const font = await fonts.forValue(text);
  // Combed fields size their text to the cells, which already works well. Sized as pdf-lib will draw
  // it (tabs as spaces).
  if (!field.isCombed()) fixFontSize(field, font, cleanText(text));
  // Drawn by text-appearance.ts: multiline values from lines broken at the size just chosen, mixed
  // scripts in runs of their own fonts.
  field.updateAppearances(font.primary, textAppearance(font, daSize));
  addFontResources(field.acroField.getWidgets(), font.extraFonts);
}

// Some producers (Scribus 1.5) write /DA strings with an empty font name; the check mark in their
// "on" appearance then never shows. pdf-lib's own check and radio appearances need no font.
const EMPTY_FONT_NAME = /\/[\0\t\n\f\r ]+(\d*\.\d+|\d+)[\0\t\n\f\r ]+Tf/;
function hasBrokenAppearance(field: PDFCheckBox | PDFRadioGroup): boolean {
  const das = [field.acroField.getDefaultAppearance(), ...field.acroField.getWidgets().map((w) => w.getDefaultAppearance())];
  return das.some((da) => da !== undefined && EMPTY_FONT_NAME.test(da));
}

function refreshToggleAppearance(field: PDFCheckBox | PDFRadioGroup): void {
  if (field.needsAppearancesUpdate() || hasBrokenAppearance(field)) field.updateAppearances();
}

function choiceError(field: PDFField, value: string): Error {
  return new RangeError(`"${value}" is not an option of the field "${field.getName()}"`);
}

async function fillChoice(field: PDFDropdown | PDFOptionList, value: FieldValue, fonts: DocumentFonts): Promise<void> {
  const wanted = asText(value);
  if (wanted === '') field.clear();
  const choice = wanted === '' ? undefined : findChoice(selectChoices(field), wanted);
  if (wanted !== '' && !choice) {
    if (!(field instanceof PDFDropdown && field.isEditable())) throw choiceError(field, wanted);
    field.select(wanted);
  } else if (choice) {
    field.select(choice.raw);
  }
  // A dropdown shows only its selection; a list box draws every option.
  const shown = field instanceof PDFDropdown ? field.getSelected().join(' ') : field.getOptions().join(' ');
  const font = await fonts.forValue(shown);
  field.updateAppearances(font.primary, choiceAppearance(font, daSize));
  addFontResources(field.acroField.getWidgets(), font.extraFonts);
  // pdf-lib stores the display text as the value; the PDF's export value is the one that counts.
  if (choice && choice.readable !== choice.raw) field.acroField.setValues([PDFHexString.fromText(choice.readable)]);
}

function fillRadio(field: PDFRadioGroup, value: FieldValue): void {
  const wanted = asText(value);
  if (wanted === '') field.clear();
  else {
    const choice = findChoice(radioChoices(field), wanted);
    if (!choice) throw choiceError(field, wanted);
    field.select(choice.raw);
  }
  refreshToggleAppearance(field);
}

/** Sets one AcroForm field; signature fields and push buttons are left untouched. */
export async function fillAcroField(field: PDFField, value: FieldValue, fonts: DocumentFonts): Promise<void> {
  if (field instanceof PDFTextField) return fillText(field, value, fonts);
  if (field instanceof PDFCheckBox) {
    if (isChecked(value)) field.check();
    else field.uncheck();
    refreshToggleAppearance(field);
    return;
  }
  if (field instanceof PDFRadioGroup) return fillRadio(field, value);
  if (field instanceof PDFDropdown || field instanceof PDFOptionList) return fillChoice(field, value, fonts);
}
