import { findDocumentPages, putDocumentPages } from '../../db/repositories/document-pages.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { PageSize } from '../../pdf/index.js';
import type { DomainDeps } from '../context.js';

// A stored document's page sizes (migration 0105, issue 43 item 4), for the signing page to reserve each
// page's box before the PDF arrives. Kept at import (measured with the upload's inspection); a document
// stored before 0105, or made without an inspection (a generated form, the sample), is measured in the
// PDF pool the first time a page needs it, and kept.

/** Each page's `[width, height]` in points as displayed; null when they cannot be had now (the page measures them itself). */
export async function documentPageSizes(deps: DomainDeps, p: Partition, pdfKey: string): Promise<PageSize[] | null> {
  const stored = await findDocumentPages(deps.db, p, pdfKey);
  if (stored !== undefined) return JSON.parse(stored) as PageSize[];
  try {
    const pdf = await deps.blobs.get(pdfKey);
    if (!pdf) return null;
    const sizes = await deps.pdfPages.pageSizes(pdf, { owner: p.accountId });
    await deps.transact((trx) => putDocumentPages(trx, p, pdfKey, JSON.stringify(sizes), isoNow(deps.clock)));
    return sizes;
  } catch {
    // A busy pool or store only costs this view its reserved boxes: the page lays them out from the PDF.
    return null;
  }
}
