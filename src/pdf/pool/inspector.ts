// What the domain calls: an inspector and a renderer, both running their work in one PdfPool.
import type { FieldDef, FieldValue } from '../field.js';
import type { PdfRenderer } from '../fill/index.js';
import type { LaidOutForm, LayoutRequest } from '../generate/index.js';
import type { AuditTrail, SealFacts } from '../audit/index.js';
import type { DetectedTemplate } from '../inspect/index.js';
import type { SealRequest, SigningCertificate } from '../seal/index.js';
import { RENDERER_VERSION } from '../shared/renderer-version.js';
import type { PageSize } from '../shared/page-sizes.js';
import type { ServiceCertificates, Verification } from '../verify/index.js';
import type { JobOptions, PdfSource, SealResult, TsaSettings } from '../work.js';
import { createPdfPool, type PdfPool, type PdfPoolOptions } from './pdf-pool.js';

export interface PdfInspector {
  inspect(source: PdfSource, opts?: JobOptions): Promise<DetectedTemplate>;
  close(): Promise<void>;
}

export interface PdfWork {
  readonly pool: PdfPool;
  readonly inspector: PdfInspector;
  readonly renderer: PdfRenderer;
  /** Seals a signed form's document (seal/): CPU work, so in the pool like the rest; B-T to B-LTA when TSAs are given. */
  seal(request: SealRequest, certificate: SigningCertificate, opts?: JobOptions, tsa?: TsaSettings): Promise<SealResult>;
  /** Lays out a form generated from a description (generate/). */
  generate(request: LayoutRequest, opts?: JobOptions): Promise<LaidOutForm>;
  /** What a PDF's signatures prove (verify/), against the service's certificates if given. */
  verify(source: PdfSource, service: ServiceCertificates | undefined, opts?: JobOptions): Promise<Verification>;
  /** A stored document's page sizes as displayed (issue 43 item 4). */
  pageSizes(pdf: Uint8Array, opts?: JobOptions): Promise<PageSize[]>;
  /** One page (1-based) as a WebP picture at `scale` px per point (raster/page-image.ts). */
  pageImage(pdf: Uint8Array, page: number, scale: number, opts?: JobOptions): Promise<Uint8Array>;
  /** The audit trail as a PDF of its own (audit/). */
  auditTrail(audit: AuditTrail, facts: SealFacts, opts?: JobOptions): Promise<Uint8Array>;
  close(): Promise<void>;
}

export function createPdfWork(options: PdfPoolOptions): PdfWork {
  const pool = createPdfPool(options);
  const version = RENDERER_VERSION;
  const close = (): Promise<void> => pool.close();
  return {
    pool,
    inspector: { inspect: (source, opts) => pool.run({ kind: 'inspect', source }, opts), close },
    renderer: {
      version,
      render: (pdf: Uint8Array, fields: readonly FieldDef[], values: Record<string, FieldValue>, opts?: JobOptions) =>
        pool.run({ kind: 'fill', pdf, fields, values }, opts),
      preview: (pdf: Uint8Array, fields: readonly FieldDef[], opts?: JobOptions) => pool.run({ kind: 'preview', pdf, fields }, opts),
    },
    seal: (request, certificate, opts, tsa) => pool.run({ kind: 'seal', request, certificate, tsa }, opts),
    generate: (request, opts) => pool.run({ kind: 'generate', request }, opts),
    verify: (source, service, opts) => pool.run({ kind: 'verify', source, service: service ?? null }, opts),
    auditTrail: (audit, facts, opts) => pool.run({ kind: 'audit', audit, facts }, opts),
    pageSizes: (pdf, opts) => pool.run({ kind: 'pages', pdf }, opts),
    pageImage: (pdf, page, scale, opts) => pool.run({ kind: 'image', pdf, page, scale }, opts),
    close,
  };
}

/**
 * A view of a pool owned elsewhere (the test harness's one pool per batch process): closing the view,
 * or its inspector, leaves the pool running for its other users; only the owner's close stops it.
 */
export function borrowedPdfWork(work: PdfWork): PdfWork {
  const keep = async (): Promise<void> => undefined;
  return { ...work, inspector: { ...work.inspector, close: keep }, close: keep };
}

export interface PdfInspectorOptions {
  /** CPU time one inspection may use; the worker is terminated past it. */
  timeoutMs: number;
  /** V8 old-generation heap limit of the worker thread. */
  maxOldGenerationSizeMb: number;
}

/**
 * A stand-alone inspector with a one-worker pool of its own (tests, tools). Its trial fill may use the
 * whole job limit: these limits are set per test, often far below what a fill needs.
 */
export function createPdfInspector(options: PdfInspectorOptions): PdfInspector {
  const { timeoutMs, maxOldGenerationSizeMb } = options;
  return createPdfWork({ workers: 1, jobCpuMs: timeoutMs, trialFillCpuMs: timeoutMs, maxOldGenerationSizeMb, maxQueued: 1000, perOwnerQueued: 1000 }).inspector;
}
