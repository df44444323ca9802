import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound, sourcePdfMissing } from '../errors.js';
import { fromPdfError } from '../pdf/pdf-errors.js';
import { loadTemplate } from './template-cache.js';

/**
 * The template's PDF with every field's rectangle outlined in its signer's colour and tagged with its
 * name and type: what a developer checks coordinates against. Drawn in the PDF pool like a fill.
 */
export async function previewTemplate(deps: DomainDeps, p: Partition, id: string, signal?: AbortSignal): Promise<{ pdf: Uint8Array; filename: string }> {
  const t = await loadTemplate(deps, p, id);
  if (!t) throw notFound('template', id);
  const source = await deps.blobs.get(t.pdfKey);
  if (!source) throw sourcePdfMissing('template', id);
  try {
    return { pdf: await deps.pdfRenderer.preview(source, t.fields.defs, { owner: p.accountId, signal }), filename: `${id}-preview.pdf` };
  } catch (err) {
    throw fromPdfError(err);
  }
}
