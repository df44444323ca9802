import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { fromPdfError } from '../pdf/pdf-errors.js';
import { formRenderVersion, getFormPdf, pageImageKeyOf, shareInFlight, type SharedRender } from './render-form-pdf.js';

// The first page of a form's filled document as a picture (issue 43 item 4): the signing page shows it
// before pdf.js and the PDF have loaded. It is drawn from the same filled rendering the page's PDF is
// (getFormPdf), so it shows what that shows (earlier signers' values included), and cached beside that
// rendering under its version: forms with the same template and values share one picture, a changed
// value draws a new one, and a purge deletes it with the rendering (delete-form.ts).

/**
 * Pixels per PDF point: guided mode's zoom (1.75 CSS px per point, assets/guided.ts GUIDED_SCALE) at
 * one device pixel per CSS pixel. Sharper would cost the slow phone bytes it waits for (88 KB for the
 * 1040's first page here, 142 KB at 2.5); pdf.js's crisp drawing replaces it a few seconds later.
 */
export const FIRST_PAGE_SCALE = 1.75;

/**
 * Drawings in flight by the picture's cache key, which names the version actually drawn: each reader
 * joins with its own signal, and the drawing is cancelled only when every reader has left.
 */
const inFlight = new Map<string, SharedRender>();

/** The picture, or null when the client holds this version already (`ifNoneMatch`): then nothing is drawn. */
export async function firstPageImage(deps: DomainDeps, p: Partition, formId: string, ifNoneMatch?: string, signal?: AbortSignal): Promise<{ image: Uint8Array | null; etag: string }> {
  const asked = await formRenderVersion(deps, p, formId);
  const askedEtag = `"${asked.version}-p1"`;
  if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === askedEtag)) return { image: null, etag: askedEtag };
  // A picture cached under a version was drawn from that version (below), so this one is the form's now.
  const cached = await deps.renderCache.get(pageImageKeyOf(asked.cacheKey));
  if (cached) return { image: cached, etag: askedEtag };
  // The form may have changed since `asked` was read (a signer submitted): the picture is drawn from,
  // keyed by and tagged with the version getFormPdf actually rendered, never the one asked for, or
  // another form's signer sharing the asked key (the blank form) would be served these values.
  const rendered = await getFormPdf(deps, p, formId, undefined, signal);
  if (rendered.notModified) throw new Error('unreachable: no If-None-Match was given');
  const version = rendered.etag.replace(/"/g, '');
  const key = pageImageKeyOf(deps.renderCache.keyFor(p, version));
  const shared = inFlight.get(key) ?? shareInFlight(inFlight, key, (jobSignal) => drawFirstPage(deps, p, rendered.pdf, key, jobSignal));
  try {
    return { image: await shared.join(signal), etag: `"${version}-p1"` };
  } catch (err) {
    throw fromPdfError(err);
  }
}

async function drawFirstPage(deps: DomainDeps, p: Partition, pdf: Uint8Array, key: string, signal: AbortSignal): Promise<Uint8Array> {
  const cached = await deps.renderCache.get(key);
  if (cached) return cached;
  // In the PDF pool, owned by the account like its other PDF work.
  const image = await deps.pdfPages.pageImage(pdf, 1, FIRST_PAGE_SCALE, { owner: p.accountId, signal });
  await deps.renderCache.put(key, image);
  return image;
}
