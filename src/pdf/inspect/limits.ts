// Limits on what one template may hold, so that every template that imports can be filled and sealed
// within a job's CPU and memory limits (the trial fill in the pool checks the rest). They stand far
// above real forms: of the fixtures the largest holds 2,282 objects (uscis_i90), 13 pages and 726
// fields are the largest form seen in use, and no choice field has more than 63 options.
import { PDFDropdown, PDFOptionList, PDFRadioGroup, type PDFDocument, type PDFForm } from '@cantoo/pdf-lib';
import { PdfRejectedError } from '../field.js';

export const TEMPLATE_LIMITS = {
  objects: 25_000,
  pages: 1_000,
  fields: 5_000,
  widgets: 10_000,
  optionsPerField: 2_000,
} as const;

const SIMPLER = 'Please upload a simpler copy (for example one saved again with "Save As" or "Print to PDF" and its form fields recreated).';
const n = (x: number): string => x.toLocaleString('en-US');

function refuse(what: string, count: number, limit: number): never {
  throw new PdfRejectedError('pdf_invalid', `This PDF has ${n(count)} ${what}; Formsign accepts at most ${n(limit)}, so that every template can be filled within its processing limits. ${SIMPLER}`);
}

/** Objects and pages, checked right after parsing (before anything walks them). */
export function checkDocumentLimits(doc: PDFDocument): void {
  const objects = doc.context.enumerateIndirectObjects().length;
  if (objects > TEMPLATE_LIMITS.objects) refuse('objects', objects, TEMPLATE_LIMITS.objects);
  const pages = doc.getPageCount();
  if (pages > TEMPLATE_LIMITS.pages) refuse('pages', pages, TEMPLATE_LIMITS.pages);
}

/** Fields, their widgets and their options. */
export function checkFormLimits(form: PDFForm): void {
  const fields = form.getFields();
  if (fields.length > TEMPLATE_LIMITS.fields) refuse('form fields', fields.length, TEMPLATE_LIMITS.fields);
  let widgets = 0;
  for (const field of fields) {
    widgets += field.acroField.getWidgets().length;
    if (field instanceof PDFDropdown || field instanceof PDFOptionList || field instanceof PDFRadioGroup) {
      const options = field.getOptions().length;
      if (options > TEMPLATE_LIMITS.optionsPerField) refuse(`options in the field "${field.getName()}"`, options, TEMPLATE_LIMITS.optionsPerField);
    }
  }
  if (widgets > TEMPLATE_LIMITS.widgets) refuse('field widgets', widgets, TEMPLATE_LIMITS.widgets);
}
