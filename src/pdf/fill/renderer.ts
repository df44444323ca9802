// Fills a stored template with values: AcroForm fields through the form API, flat fields by
// drawing. The result is not flattened (the signing stage does that), but every value has an
// appearance stream, so viewers show it without regenerating anything.
import { EncryptedPDFError, ParseSpeeds, PDFDocument, PDFHexString, PDFName, PDFString, type PDFField, type PDFForm } from '@cantoo/pdf-lib';
import { drawFlatField } from './draw-flat.js';
import { drawPreview } from './draw-preview.js';
import type { FieldDef, FieldType, FieldValue } from '../field.js';
import type { JobOptions } from '../work.js';
import { fillAcroField } from './fill-acroform.js';
import { DocumentFonts, hanStyleOf } from './fonts.js';
import { removeActiveContent } from '../shared/active-content.js';
import { dropStaleStructures, dropUsageRights } from '../shared/pdf-cleanup.js';
import { completeMissingAppearances } from './missing-appearances.js';
import { RENDERER_VERSION } from '../shared/renderer-version.js';

export interface PdfRenderer {
  /** Changes whenever the same inputs would render differently, so cached renderings are not reused. */
  readonly version: string;
  /** `opts` matters where the work is scheduled (the pool); drawing in this thread ignores it. */
  render(templatePdf: Uint8Array, fields: readonly FieldDef[], values: Record<string, FieldValue>, opts?: JobOptions): Promise<Uint8Array>;
  /** The template with each field's rectangle outlined and named (draw-preview.ts). */
  preview(templatePdf: Uint8Array, fields: readonly FieldDef[], opts?: JobOptions): Promise<Uint8Array>;
}


/** Filled in by the signing stage, never from submitted values. */
// Attachments (issue 41): the stored value is the files' ids; the seal names the files at the field
// and appends them (seal-pdf.ts), so the fill draws nothing there.
const SIGNING_STAGE: ReadonlySet<FieldType> = new Set(['signature', 'initials', 'date_signed', 'attachment']);
const TEMPLATE_LOAD = { updateMetadata: false, preserveXFA: true } as const;

/**
 * A stored template, parsed. `fastest`: in one go, without yielding to the event loop every hundred
 * objects (pdf-lib's default): for a worker thread, where there is nothing to yield to.
 */
export async function loadTemplate(bytes: Uint8Array, fastest = false): Promise<PDFDocument> {
  const LOAD = fastest ? { ...TEMPLATE_LOAD, parseSpeed: ParseSpeeds.Fastest } : TEMPLATE_LOAD;
  try {
    return await PDFDocument.load(bytes, LOAD);
  } catch (err) {
    // Templates are stored decrypted; this covers ones stored before that was the rule.
    if (err instanceof EncryptedPDFError) return PDFDocument.load(bytes, { ...LOAD, password: '' });
    throw err;
  }
}

function fieldsByName(form: PDFForm): Map<string, PDFField> {
  const byName = new Map<string, PDFField>();
  for (const field of form.getFields()) if (!byName.has(field.getName())) byName.set(field.getName(), field);
  return byName;
}

/**
 * Sets the value through the AcroForm field, or says it cannot: a template's fields may be edited
 * after import (options the widget does not offer, a type it cannot hold), and a value its field
 * definition allows is then drawn into the rectangle instead of failing the whole document (the widget
 * is left as it was). A value the definition does not allow either is still refused.
 */
async function filledAcroField(def: FieldDef, field: PDFField, value: FieldValue, fonts: DocumentFonts): Promise<boolean> {
  try {
    await fillAcroField(field, value, fonts);
    return true;
  } catch (err) {
    if (err instanceof RangeError && (def.options === undefined || def.options.includes(String(value)))) return false;
    throw err;
  }
}

/**
 * Fills `doc` (a template loaded by loadTemplate) with `values`, in place: what render() saves, and
 * what the seal job flattens and signs in the same parse (seal-pdf.ts), never saved in between.
 */
export async function fillDocument(doc: PDFDocument, fields: readonly FieldDef[], values: Readonly<Record<string, FieldValue>>): Promise<void> {
  const lang = doc.catalog.lookupMaybe(PDFName.of('Lang'), PDFString, PDFHexString)?.decodeText();
  const texts = Object.values(values).filter((v): v is string => typeof v === 'string');
  const fonts = new DocumentFonts(doc, hanStyleOf(lang, texts));
  // getForm() would add an empty AcroForm to a flat PDF; only real forms are touched.
  const form = doc.catalog.getAcroForm() ? doc.getForm() : undefined;
  // Viewers that understand XFA (Acrobat) would show the XFA data instead of our values.
  if (form?.hasXFA()) form.deleteXFA();
  const acroFields = form ? fieldsByName(form) : new Map<string, PDFField>();
  const touched = new Set<PDFField>();
  for (const def of fields) {
    const value = Object.hasOwn(values, def.name) ? values[def.name] : undefined;
    if (value === undefined || SIGNING_STAGE.has(def.type)) continue;
    const field = acroFields.get(def.name);
    if (field && (await filledAcroField(def, field, value, fonts))) {
      touched.add(field);
    } else {
      await drawFlatField(doc, def, value, fonts);
    }
  }
  // Every value now has an appearance drawn with a font that has its glyphs. A viewer told to
  // regenerate them would use the field's /DA font, often Helvetica, and lose non-Latin text.
  if (form && (await completeMissingAppearances(form, touched, fonts))) {
    form.acroForm.dict.delete(PDFName.of('NeedAppearances'));
  }
  dropUsageRights(doc);
  // Templates are cleaned at import; this covers ones stored before that was the rule.
  removeActiveContent(doc);
  dropStaleStructures(doc, false);
}

export function createPdfRenderer(): PdfRenderer {
  return {
    version: RENDERER_VERSION,
    async render(templatePdf, fields, values) {
      const doc = await loadTemplate(templatePdf);
      await fillDocument(doc, fields, values);
      return doc.save({ updateFieldAppearances: false });
    },
    preview: (templatePdf, fields) => drawPreview(templatePdf, fields),
  };
}
