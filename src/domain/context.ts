// The context every use case receives, and the interfaces of the services in it. They are declared
// here, not beside their implementations in the areas below, so that this file imports nothing from
// domain/ but leaf types: every use case imports it, and an import back into an area would close a circle.
import type { OfficeConverter } from '../providers/documents/office-converter.js';
import type { OidcClient } from '../providers/oidc/oidc-client.js';
import type { Db, ReplayableTransact, Transact } from '../db/handles.js';
import type { Clock } from '../lib/clock.js';
import type { FileLinks } from '../lib/file-links.js';
import type { Partition } from '../lib/partition.js';
import type { SigningLinks } from '../lib/signing-links.js';
import type { AuditTrail, JobOptions, LaidOutForm, SealFacts, LayoutRequest, PdfInspector, PdfRenderer, PdfSource, PdfWork, ServiceCertificates, SigningCertificate, Verification } from '../pdf/index.js';
import type { BlobStore } from '../providers/blob/index.js';
import type { ChatModel } from '../providers/llm/index.js';
import type { WebhookSender } from '../providers/webhook-http/index.js';
import type { PlanSettings } from './plans/plan-rules.js';
import type { FieldSet } from './templates/field-set.js';
import type { ScryptCost } from './users/passwords.js';

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
  /** scrypt's cost for new password hashes: absent in production (SCRYPT_PARAMS); tests pass a cheap one. */
  readonly passwordCost?: ScryptCost;
  readonly blobs: BlobStore;
  readonly pdfInspector: PdfInspector;
  /** Word and OpenDocument uploads to PDF (LibreOffice), before they are inspected like a PDF. */
  readonly documents: OfficeConverter;
  readonly pdfRenderer: PdfRenderer;
  /** A stored document's page sizes, and one page as a picture (issue 43 item 4), measured and drawn in the PDF pool. */
  readonly pdfPages: Pick<PdfWork, 'pageSizes' | 'pageImage'>;
  /** Prepared templates by id (a template version never changes; an edit makes a new one); see templates/template-cache.ts. */
  readonly templateCache: TemplateCacheStore;
  /** Filled PDFs, deduplicated by what decides their bytes and bounded by size and age; see forms/render-cache.ts. */
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
  /** The completed copy: the largest sealed PDF attached to an e-mail (MAIL_ATTACH_MAX_BYTES); larger ones go as a link. */
  readonly copies: { readonly attachMaxBytes: number };
  /** The plans' terms: what a sign-up gets and each plan's monthly quota (config DEFAULT_PLAN, PLAN_*). */
  readonly plans: PlanSettings;
  /** The dashboard's single sign-on provider (config OIDC_*); absent: no single sign-on. */
  readonly oidc?: OidcClient;
  /** What a PDF's signatures prove, analysed in the PDF pool (verify/verify-document.ts). */
  readonly verifyPdf: (source: PdfSource, service: ServiceCertificates | undefined, opts?: JobOptions) => Promise<Verification>;
  /** The audit trail of a form as a PDF of its own, drawn in the PDF pool. */
  readonly auditTrailPdf: (audit: AuditTrail, facts: SealFacts, opts?: JobOptions) => Promise<Uint8Array>;
  /** Rows a bulk send takes (issue 42): 1,000 on SQLite, 5,000 on PostgreSQL (bulk/bulk-rules.ts says why). */
  readonly bulkSendMaxRows?: number;
}

/**
 * What the hot paths need of a template, prepared once. A template's fields change only by an edit,
 * which makes a new version; a version's fields never change, so what a form reads (its template
 * version's fields) can be cached without limit. What the API reads (the template as it is now) is
 * trusted for TEMPLATE_FRESH_MS, then read again: that bounds how long another process's edit or
 * delete goes unseen here (this process's own edits replace the entry at once).
 */
export interface CachedTemplate {
  readonly id: string;
  readonly accountId: string;
  readonly mode: string;
  readonly name: string;
  readonly pdfKey: string;
  /** The version these fields are (1 at import, one more per field edit). */
  readonly version: number;
  readonly fields: FieldSet;
  /** The Template object as JSON text; empty for an earlier version's entry (never served). */
  readonly json: string;
  readonly deleted: boolean;
  /** When it was read from the store (clock ms); an earlier version's entry never goes stale. */
  readonly readAt: number;
}

/** What the template cache must offer; templates/template-cache.ts's TemplateCache fits, and so does lib/lru.ts's Lru (tests use one). */
export interface TemplateCacheStore {
  get(id: string): CachedTemplate | undefined;
  set(id: string, template: CachedTemplate): void;
}

/** Filled PDFs in the blob store (forms/render-cache.ts). */
export interface RenderCache {
  readonly maxBytes: number;
  readonly maxAgeMs: number;
  keyFor(p: Partition, hash: string): string;
  get(key: string): Promise<Uint8Array | null>;
  put(key: string, pdf: Uint8Array): Promise<void>;
  /** Bytes the index believes are stored. */
  bytes(): Promise<number>;
}

/** What the webhook use cases receive from the composition root. */
export interface WebhookServices {
  /** Makes the HTTP exchange; refuses forbidden addresses where it connects (providers/webhook-http). */
  readonly sender: WebhookSender;
  /** WEBHOOK_RETRY_SCALE: multiplies the retry schedule and the three-day disabling window. */
  readonly retryScale: number;
  /** Attempts running at once to one webhook in one worker process. */
  readonly perEndpointConcurrency: number;
  /** `Formsign-Webhooks/<version>`. */
  readonly userAgent: string;
  /** Jitter source (tests may fix it). */
  readonly random: () => number;
}

/** What generating needs besides the usual stores: the PDF layout (in the pool) and the optional model. */
export interface GenerateServices {
  layout(req: LayoutRequest, opts?: JobOptions): Promise<LaidOutForm>;
  /** Configured by LLM_BASE_URL; undefined → the built-in generator only. */
  readonly model: ChatModel | undefined;
  /** Told when the model failed and the built-in generator answered (logs, metrics). */
  onModelFailure?(err: unknown): void;
}
