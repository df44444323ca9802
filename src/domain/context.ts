import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import type { PdfInspector, PdfRenderer } from '../pdf/index.js';
import type { BlobStore } from '../providers/blob/index.js';

/** What use cases receive from the composition root; they construct nothing themselves. */
export interface DomainDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly blobs: BlobStore;
  readonly pdfInspector: PdfInspector;
  readonly pdfRenderer: PdfRenderer;
}
