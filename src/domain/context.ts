import type { Db, ReplayableTransact, Transact } from '../db/handles.js';
import type { Clock } from '../lib/clock.js';
import type { FileLinks } from '../lib/file-links.js';
import type { SigningLinks } from '../lib/signing-links.js';
import type { PdfInspector, PdfRenderer, SigningCertificate } from '../pdf/index.js';
import type { BlobStore } from '../providers/blob/index.js';
import type { RenderCache } from './forms/render-cache.js';
import type { GenerateServices } from './generate/generate-form.js';
import type { TemplateCacheStore } from './templates/template-cache.js';
import type { WebhookServices } from './webhooks/services.js';

/** What use cases receive from the composition root; they construct nothing themselves. */
export interface DomainDeps {
  readonly db: Db;
  /** Opens a write transaction; state changes and the jobs they cause go through it together. */
  readonly transact: Transact;
  /**
   * A write transaction that may settle before its commit is on disk: only for work whose loss to a
   * power failure is repaired by running it again (the webhook publisher's feed), never for a write a
   * client is told about. A use case names it to get it (see db/handles.ts).
   */
  readonly transactReplayable: ReplayableTransact;
  readonly clock: Clock;
  readonly blobs: BlobStore;
  readonly pdfInspector: PdfInspector;
  readonly pdfRenderer: PdfRenderer;
  /** Prepared templates by id (a template version never changes; an edit makes a new one); see template-cache.ts. */
  readonly templateCache: TemplateCacheStore;
  /** Filled PDFs, deduplicated by what decides their bytes and bounded by size and age; see render-cache.ts. */
  readonly renderCache: RenderCache;
  /** Recipients' signing links (derived from their ids under the service's link key). */
  readonly links: SigningLinks;
  /** Webhook delivery: the guarded HTTP sender and the retry schedule's scale. */
  readonly webhooks: WebhookServices;
  /** Presigned addresses of signed PDFs (`/api/v1/files/pdf/<token>`). */
  readonly fileLinks: FileLinks;
  /** The public address used in links, redirects and e-mails (config BASE_URL). */
  readonly baseUrl: string;
  /** The service certificate sealed PDFs are signed with (loaded once at start). */
  readonly signingCertificate: SigningCertificate;
  /** Forms from a description: the PDF layout (in the PDF pool) and the optional model (LLM_*). */
  readonly generate: GenerateServices;
}
