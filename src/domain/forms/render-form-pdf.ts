import type { FormRow } from '../../db/tables.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Partition } from '../../lib/partition.js';
import type { FieldValue } from '../../pdf/field.js';
import type { DomainDeps } from '../context.js';
import { AppError, sourcePdfMissing } from '../errors.js';
import { fromPdfError } from '../pdf/pdf-errors.js';
import type { FieldSet } from '../templates/field-set.js';
import { formFields, loadForm } from './read-forms.js';

/** Renders in flight, by cache key: concurrent first reads of one form render it once. */
const inFlight = new Map<string, SharedRender>();

/**
 * One rendering awaited by one or more readers. Its job is cancelled only when every reader has
 * given up (their signals fired): one client leaving must not fail the others' reads.
 */
export interface SharedRender { pdf: Promise<Uint8Array>; join(signal: AbortSignal | undefined): Promise<Uint8Array> }

function shareRender(start: (signal: AbortSignal) => Promise<Uint8Array>, done: () => void): SharedRender {
  const controller = new AbortController();
  let waiting = 0;
  const pdf = start(controller.signal).finally(done);
  return {
    pdf,
    join(signal) {
      waiting++;
      if (signal) {
        const leave = (): void => {
          if (--waiting > 0) return;
          controller.abort();
          // A reader arriving now starts a fresh rendering instead of joining a cancelled one.
          done();
        };
        if (signal.aborted) leave();
        else {
          signal.addEventListener('abort', leave, { once: true });
          void pdf.finally(() => signal.removeEventListener('abort', leave)).catch(() => undefined);
        }
      }
      return pdf;
    },
  };
}

/** Starts a shared job under `key` in `map`; it leaves the map when done or when every reader gave up. */
export function shareInFlight(map: Map<string, SharedRender>, key: string, start: (signal: AbortSignal) => Promise<Uint8Array>): SharedRender {
  const mine: SharedRender = shareRender(start, () => {
    if (map.get(key) === mine) map.delete(key);
  });
  map.set(key, mine);
  return mine;
}

export type FormPdf =
  | { notModified: false; pdf: Uint8Array; filename: string; etag: string }
  | { notModified: true; etag: string };

/**
 * The filled, unsigned document. Rendered on first read and cached in the blob store under a key that
 * hashes the renderer's version, the source file, the fields and the values, so neither a changed value
 * nor an improved renderer is ever served a stale rendering (render-cache.ts bounds what is kept). The same hash is the document's entity tag:
 * a client that already holds this version (`ifNoneMatch`) is told so before anything is read or drawn.
 */
export async function getFormPdf(deps: DomainDeps, p: Partition, formId: string, ifNoneMatch?: string, signal?: AbortSignal): Promise<FormPdf> {
  const form = await loadForm(deps, p, formId);
  // A purged form's documents are gone with it (issue 40): what is left is its tombstone.
  if (form.status === 'deleted') throw new AppError('resource_not_found', `Form '${form.id}' was deleted: its documents are gone.`);
  const fields = await formFields(deps, p, form);
  const version = renderVersion(deps, form, fields);
  const etag = `"${version}"`;
  if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etag)) return { notModified: true, etag };
  // Keyed by the hash alone (in the partition's folder): forms with the same inputs share one copy.
  const cacheKey = deps.renderCache.keyFor(p, version);
  let shared = inFlight.get(cacheKey);
  if (!shared) {
    shared = shareInFlight(inFlight, cacheKey, (jobSignal) => renderOnce(deps, p, form, fields, cacheKey, jobSignal));
  }
  let pdf: Uint8Array;
  try {
    pdf = await shared.join(signal);
  } catch (err) {
    throw fromPdfError(err);
  }
  return { notModified: false, pdf, filename: `${form.id}.pdf`, etag };
}

/** What decides the rendered bytes: the renderer's version, the source file, the fields and the values. */
function renderVersion(deps: Pick<DomainDeps, 'pdfRenderer'>, form: FormRow, fields: FieldSet): string {
  return sha256Hex(`${deps.pdfRenderer.version}\n${form.pdf_key}\n${fields.json}\n${form.values}`).slice(0, 32);
}

/** Where the form's filled document is cached now (a purge deletes it: it shows the values). */
export function renderCacheKeyOf(deps: Pick<DomainDeps, 'pdfRenderer' | 'renderCache'>, p: Partition, form: FormRow, fields: FieldSet): string {
  return deps.renderCache.keyFor(p, renderVersion(deps, form, fields));
}

/**
 * Where the picture of the first page of the rendering cached at `renderKey` is kept (first-page-image.ts):
 * beside it, named after it, so whatever deletes a form's rendering (a purge) deletes its picture too.
 */
export function pageImageKeyOf(renderKey: string): string {
  return renderKey.replace(/\.pdf$/, '.page1.webp');
}

/** The rendering's version (its entity tag's value) and where it is cached, without reading it. */
export async function formRenderVersion(deps: DomainDeps, p: Partition, formId: string): Promise<{ version: string; cacheKey: string }> {
  const form = await loadForm(deps, p, formId);
  if (form.status === 'deleted') throw new AppError('resource_not_found', `Form '${form.id}' was deleted: its documents are gone.`);
  const version = renderVersion(deps, form, await formFields(deps, p, form));
  return { version, cacheKey: deps.renderCache.keyFor(p, version) };
}

/** RFC 9110 If-None-Match: `*`, or a list of tags compared weakly (a W/ prefix is ignored). */
function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

async function renderOnce(deps: DomainDeps, p: Partition, form: FormRow, fields: FieldSet, cacheKey: string, signal: AbortSignal): Promise<Uint8Array> {
  const cached = await deps.renderCache.get(cacheKey);
  if (cached) return cached;
  const source = await deps.blobs.get(form.pdf_key);
  if (!source) throw sourcePdfMissing('form', form.id);
  const values = JSON.parse(form.values) as Record<string, FieldValue>;
  const pdf = await deps.pdfRenderer.render(source, fields.defs, values, { owner: p.accountId, signal });
  await deps.renderCache.put(cacheKey, pdf);
  return pdf;
}
