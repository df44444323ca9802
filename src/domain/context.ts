import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import type { Lru } from '../lib/lru.js';
import type { PdfInspector, PdfRenderer } from '../pdf/index.js';
import type { BlobStore } from '../providers/blob/index.js';

/** What use cases receive from the composition root; they construct nothing themselves. */
export interface DomainDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly blobs: BlobStore;
  readonly pdfInspector: PdfInspector;
  readonly pdfRenderer: PdfRenderer;
  /** Serialised Template JSON by id (templates are immutable once imported). */
  readonly templateJsonCache: Lru<string, string>;
}
