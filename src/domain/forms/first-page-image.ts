import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { fromPdfError } from '../pdf/pdf-errors.js';
import { formRenderVersion, getFormPdf, pageImageKeyOf } from './render-form-pdf.js';

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

/** Drawings in flight by cache key: concurrent first views of one document draw it once. */
const inFlight = new Map<string, Promise<Uint8Array>>();

/** The picture, or null when the client holds this version already (`ifNoneMatch`): then nothing is drawn. */
export async function firstPageImage(deps: DomainDeps, p: Partition, formId: string, ifNoneMatch?: string, signal?: AbortSignal): Promise<{ image: Uint8Array | null; etag: string }> {
  const { version, cacheKey } = await formRenderVersion(deps, p, formId);
  const key = pageImageKeyOf(cacheKey);
  const etag = `"${version}-p1"`;
  if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return { image: null, etag };
  let drawing = inFlight.get(key);
  if (!drawing) {
    drawing = (async () => {
      const cached = await deps.renderCache.get(key);
      if (cached) return cached;
      const rendered = await getFormPdf(deps, p, formId, undefined, signal);
      if (rendered.notModified) throw new Error('unreachable: no If-None-Match was given');
      let image: Uint8Array;
      try {
        // In the PDF pool, owned by the account like its other PDF work.
        image = await deps.pdfPages.pageImage(rendered.pdf, 1, FIRST_PAGE_SCALE, { owner: p.accountId, signal });
      } catch (err) {
        throw fromPdfError(err);
      }
      await deps.renderCache.put(key, image);
      return image;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, drawing);
  }
  return { image: await drawing, etag };
}
