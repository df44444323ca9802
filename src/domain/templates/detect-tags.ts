import { findTemplate } from '../../db/repositories/templates.js';
import type { Partition } from '../../lib/partition.js';
import type { FieldDef } from '../../pdf/index.js';
import type { DomainDeps } from '../context.js';
import { notFound, sourcePdfMissing } from '../errors.js';
import { fromPdfError } from '../pdf/pdf-errors.js';

export interface DetectedTags {
  object: 'detected_fields';
  /** Fields the document's text tags (and form fields) describe that the template does not have yet, by name. */
  fields: FieldDef[];
  /** Signer roles the tags name (`role=Tenant`), by slot. */
  signers: Array<{ slot: number; role: string }>;
  /** Tags that could not be read (page and text), and anything else the reading noticed. */
  warnings: string[];
}

/**
 * The builder's "Detect tags" (issue 41 item 6): reads the template's stored document again with the
 * upload's inspection, text tags included (`{{name;type=…}}`: their text stays under the cover drawn at
 * upload), and offers the fields found that the template lacks. Changes nothing: the builder adds the
 * ones the person keeps, and saves them as any edit.
 */
export async function detectTemplateTags(deps: Pick<DomainDeps, 'db' | 'blobs' | 'pdfInspector'>, p: Partition, templateId: string, signal?: AbortSignal): Promise<DetectedTags> {
  const template = await findTemplate(deps.db, p, templateId);
  if (!template || template.deleted_at !== null) throw notFound('template', templateId);
  const pdf = await deps.blobs.get(template.pdf_key);
  if (!pdf) throw sourcePdfMissing('template', templateId);
  let detected;
  try {
    detected = await deps.pdfInspector.inspect(pdf, { owner: p.accountId, signal });
  } catch (err) {
    throw fromPdfError(err);
  }
  const have = new Set((JSON.parse(template.fields) as FieldDef[]).map((f) => f.name));
  return { object: 'detected_fields', fields: detected.fields.filter((f) => !have.has(f.name)), signers: detected.roles, warnings: detected.warnings };
}
