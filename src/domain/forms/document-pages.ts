import { findDocumentPages, putDocumentPages } from '../../db/repositories/document-pages.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { PageSize } from '../../pdf/index.js';
import type { DomainDeps } from '../context.js';

// A stored document's page sizes (migration 0105, issue 43 item 4), for the signing page to reserve each
// page's box before the PDF arrives. Kept at import (measured with the upload's inspection); a document
// stored before 0105, or made without an inspection (a generated form, the sample), is measured in the
// PDF pool the first time a page needs it, and kept.

/**
 * How long a page view waits for a measurement. The `pages` job queues behind the account's other PDF
 * work (a seal backlog can hold it for the pool's whole wait, 90 s); the page must not: past this it
 * is sent without the sizes (it lays its boxes out from the PDF) and the measurement finishes and is
 * kept in the background, for the next view.
 */
export const MEASURE_WAIT_MS = 1000;

/** Measurements under way, by account and document: concurrent views of one document measure it once. */
const measuring = new Map<string, Promise<PageSize[] | null>>();

/** Each page's `[width, height]` in points as displayed; null when they cannot be had now (the page measures them itself). */
export async function documentPageSizes(deps: DomainDeps, p: Partition, pdfKey: string, signal?: AbortSignal): Promise<PageSize[] | null> {
  const stored = await findDocumentPages(deps.db, p, pdfKey);
  if (stored !== undefined) return JSON.parse(stored) as PageSize[];
  const key = `${p.mode}\n${p.accountId}\n${pdfKey}`;
  let job = measuring.get(key);
  if (!job) {
    job = measure(deps, p, pdfKey).finally(() => measuring.delete(key));
    measuring.set(key, job);
  }
  return waitBriefly(job, MEASURE_WAIT_MS, signal);
}

async function measure(deps: DomainDeps, p: Partition, pdfKey: string): Promise<PageSize[] | null> {
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

/** `job`'s result if it comes within `ms` and before `signal` fires; null otherwise (the job runs on). */
function waitBriefly<T>(job: Promise<T | null>, ms: number, signal: AbortSignal | undefined): Promise<T | null> {
  if (signal?.aborted) return Promise.resolve(null);
  return new Promise((resolve) => {
    const done = (value: T | null): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', gone);
      resolve(value);
    };
    const gone = (): void => done(null);
    const timer = setTimeout(gone, ms);
    signal?.addEventListener('abort', gone, { once: true });
    void job.then(done, gone);
  });
}
