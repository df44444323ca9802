import type { FormRow } from '../../db/tables.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Partition } from '../../lib/partition.js';
import type { FieldValue } from '../../pdf/field.js';
import type { DomainDeps } from '../context.js';
import type { FieldSet } from '../templates/field-set.js';
import { formFields, loadForm } from './read-forms.js';

/** Renders in flight, by cache key: concurrent first reads of one form render it once. */
const inFlight = new Map<string, Promise<Uint8Array>>();

export type FormPdf =
  | { notModified: false; pdf: Uint8Array; filename: string; etag: string }
  | { notModified: true; etag: string };

/**
 * The filled, unsigned document. Rendered on first read and cached in the blob store under a key that
 * hashes the renderer's version, the source file, the fields and the values, so neither a changed value
 * nor an improved renderer is ever served a stale rendering. The same hash is the document's entity tag:
 * a client that already holds this version (`ifNoneMatch`) is told so before anything is read or drawn.
 */
export async function getFormPdf(deps: DomainDeps, p: Partition, formId: string, ifNoneMatch?: string): Promise<FormPdf> {
  const form = await loadForm(deps, p, formId);
  const fields = await formFields(deps, p, form);
  const version = sha256Hex(`${deps.pdfRenderer.version}\n${form.pdf_key}\n${fields.json}\n${form.values}`).slice(0, 32);
  const etag = `"${version}"`;
  if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etag)) return { notModified: true, etag };
  const cacheKey = `${p.accountId}/${p.mode}/renders/${form.id}-${version}.pdf`;
  let pending = inFlight.get(cacheKey);
  if (!pending) {
    pending = renderOnce(deps, form, fields, cacheKey).finally(() => inFlight.delete(cacheKey));
    inFlight.set(cacheKey, pending);
  }
  return { notModified: false, pdf: await pending, filename: `${form.id}.pdf`, etag };
}

/** RFC 9110 If-None-Match: `*`, or a list of tags compared weakly (a W/ prefix is ignored). */
function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

async function renderOnce(deps: DomainDeps, form: FormRow, fields: FieldSet, cacheKey: string): Promise<Uint8Array> {
  const cached = await deps.blobs.get(cacheKey);
  if (cached) return cached;
  const source = await deps.blobs.get(form.pdf_key);
  if (!source) throw new Error(`source PDF ${form.pdf_key} of ${form.id} is missing from the blob store`);
  const values = JSON.parse(form.values) as Record<string, FieldValue>;
  const pdf = await deps.pdfRenderer.render(source, fields.defs, values);
  await deps.blobs.put(cacheKey, pdf, 'application/pdf');
  return pdf;
}
