import type { Db } from '../db/database.js';
import type { Transact } from '../db/transact.js';
import type { Clock } from '../lib/clock.js';
import type { Lru } from '../lib/lru.js';
import type { PdfInspector, PdfRenderer } from '../pdf/index.js';
import type { BlobStore } from '../providers/blob/index.js';
import type { CachedTemplate } from './templates/template-cache.js';

/** What use cases receive from the composition root; they construct nothing themselves. */
export interface DomainDeps {
  readonly db: Db;
  /** Opens a write transaction; state changes and the jobs they cause go through it together. */
  readonly transact: Transact;
  readonly clock: Clock;
  readonly blobs: BlobStore;
  readonly pdfInspector: PdfInspector;
  readonly pdfRenderer: PdfRenderer;
  /** Prepared templates by id (templates are immutable once imported); see template-cache.ts. */
  readonly templateCache: Lru<string, CachedTemplate>;
}
