import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound, sourcePdfMissing } from '../errors.js';
import { loadTemplate } from './template-cache.js';

/** A template's source PDF, for the dashboard's builder to draw its pages (partition checked). */
export async function readTemplatePdf(deps: DomainDeps, p: Partition, id: string): Promise<Uint8Array> {
  const t = await loadTemplate(deps, p, id);
  if (!t) throw notFound('template', id);
  const pdf = await deps.blobs.get(t.pdfKey);
  if (!pdf) throw sourcePdfMissing('template', id);
  return pdf;
}
