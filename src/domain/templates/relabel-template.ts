import { findTemplate, lockTemplate, updateTemplateRow, type TemplatePatch } from '../../db/repositories/templates.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { FieldDef } from '../../pdf/index.js';
import type { DomainDeps } from '../context.js';
import { notFound, sourcePdfMissing } from '../errors.js';
import { fromPdfError } from '../pdf/pdf-errors.js';
import type { PreparedWrite } from '../prepared-write.js';
import { presentTemplate, type TemplateView } from './present-template.js';
import { rememberTemplate } from './template-cache.js';
import { replaceFields } from './update-template.js';

/**
 * Whether a field's label still says nothing a person chose: none, blank, or the raw field name (what
 * imports before labels existed, and builders, leave). Any other text was typed by someone, or is the
 * PDF's own label already, and is kept. The stored template records no "edited by hand" flag, so this
 * is the one way to tell, and it errs towards keeping words.
 */
export function labelIsUnset(f: Pick<FieldDef, 'name' | 'label'>): boolean {
  const label = f.label?.trim() ?? '';
  return label === '' || label === f.name;
}

/** The fields with each unset label replaced by what the PDF says of the field of the same name. */
export function relabelFields(fields: readonly FieldDef[], fromPdf: ReadonlyMap<string, string>): { fields: FieldDef[]; changed: number } {
  let changed = 0;
  const out = fields.map((f) => {
    const label = fromPdf.get(f.name);
    if (label === undefined || label === f.label || !labelIsUnset(f)) return f;
    changed++;
    return { ...f, label };
  });
  return { fields: out, changed };
}

/**
 * "Relabel from the PDF": reads the template's stored source PDF again with the import's label rules
 * (/TU, else the XFA tooltip of the same path, else the nearest printed text) and gives every field
 * whose label is unset (labelIsUnset) the PDF's label. Fields drawn in the builder (no AcroForm field
 * of their name) and labels someone wrote are left alone. A change makes a new version, as an edit does;
 * no change writes nothing. The PDF is read before the transaction; the labels are applied to the row
 * as it is once locked, so an edit saved in between is not undone.
 */
export async function prepareRelabelTemplate(deps: DomainDeps, p: Partition, templateId: string): Promise<PreparedWrite<TemplateView>> {
  const before = await findTemplate(deps.db, p, templateId);
  if (!before || before.deleted_at !== null) throw notFound('template', templateId);
  const pdf = await deps.blobs.get(before.pdf_key);
  if (!pdf) throw sourcePdfMissing('template', templateId);
  let detected;
  try {
    detected = await deps.pdfInspector.inspect(pdf, { owner: p.accountId });
  } catch (err) {
    // The PDF was accepted once; the same rules now refusing it would be a change of rules.
    throw fromPdfError(err);
  }
  const fromPdf = new Map(detected.fields.flatMap((f) => (f.label === undefined ? [] : [[f.name, f.label] as const])));
  return async (trx) => {
    // Nothing to relabel writes nothing (not even updated_at); otherwise the row is locked and read again.
    const seen = await findTemplate(trx, p, templateId);
    if (!seen || seen.deleted_at !== null) throw notFound('template', templateId);
    if (!relabelFields(storedFields(seen.fields), fromPdf).changed) return presentTemplate(seen);
    const now = isoNow(deps.clock);
    const current = await lockTemplate(trx, p, templateId, now);
    if (!current) throw notFound('template', templateId);
    const change: TemplatePatch = { updated_at: now };
    await replaceFields(trx, p, current, relabelFields(storedFields(current.fields), fromPdf).fields, change);
    const row = await updateTemplateRow(trx, p, templateId, change);
    if (!row) throw notFound('template', templateId);
    // Stale at once (readAt -Infinity): should this transaction not commit, the next read goes to the store.
    rememberTemplate(deps, row);
    return presentTemplate(row);
  };
}

// Stored fields passed the import's rules when they were written.
const storedFields = (json: string): FieldDef[] => JSON.parse(json) as FieldDef[];
