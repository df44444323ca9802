// Messages between the pool and its worker threads. Every kind of PDF work is one job kind here;
// sealing will add its own.
import type { FieldDef, FieldValue, PdfRejectionCode } from '../field.js';
import type { LaidOutForm, LayoutRequest } from '../generate/index.js';
import type { AuditTrail, SealFacts } from '../audit/index.js';
import type { DetectedTemplate } from '../inspect/index.js';
import type { PageSize } from '../shared/page-sizes.js';
import type { SealRequest, SigningCertificate } from '../seal/index.js';
import type { ServiceCertificates, Verification } from '../verify/index.js';
import type { PdfSource, SealLevel, SealResult, TsaFailure, TsaSettings } from '../work.js';

export type PdfJob =
  | { kind: 'inspect'; source: PdfSource }
  | { kind: 'fill'; pdf: Uint8Array; fields: readonly FieldDef[]; values: Record<string, FieldValue> }
  | { kind: 'preview'; pdf: Uint8Array; fields: readonly FieldDef[] }
  // The certificate's KeyObject is cloned into the worker (KeyObjects may cross threads).
  // With TSAs, the seal is timestamped (B-T to B-LTA, seal-pdf.ts) and the worker asks the TSAs and
  // revocation responders itself (it waits on them, without CPU time).
  | { kind: 'seal'; request: SealRequest; certificate: SigningCertificate; tsa?: TsaSettings | undefined }
  // A form generated from a description: its layout and AcroForm (generate/).
  | { kind: 'generate'; request: LayoutRequest }
  // What a PDF's signatures prove (verify/), judged against the service's own certificates.
  | { kind: 'verify'; source: PdfSource; service: ServiceCertificates | null }
  // The audit trail as a PDF of its own (audit/).
  | { kind: 'audit'; audit: AuditTrail; facts: SealFacts }
  // Issue 43 item 4: a stored document's page sizes (one stored before they were kept at import), and
  // one page drawn as a WebP picture for the signing page to show before pdf.js has loaded.
  | { kind: 'pages'; pdf: Uint8Array }
  | { kind: 'image'; pdf: Uint8Array; page: number; scale: number };

export type JobKind = PdfJob['kind'];

/** What each kind of job resolves to in the caller's thread. */
export interface JobResults {
  inspect: DetectedTemplate;
  fill: Uint8Array;
  preview: Uint8Array;
  seal: SealResult;
  generate: LaidOutForm;
  verify: Verification;
  audit: Uint8Array;
  pages: PageSize[];
  image: Uint8Array;
}

export interface JobRequest { id: number; job: PdfJob }

export type JobReply =
  | { id: number; ok: true; kind: 'inspect'; pageCount: number; pageSizes: PageSize[]; fields: FieldDef[]; warnings: string[]; pdf: Uint8Array; roles: Array<{ slot: number; role: string }> }
  | { id: number; ok: true; kind: 'fill' | 'preview' | 'audit' | 'image'; pdf: Uint8Array }
  | { id: number; ok: true; kind: 'pages'; pageSizes: PageSize[] }
  | { id: number; ok: true; kind: 'seal'; pdf: Uint8Array; level: SealLevel; tsaFailures: TsaFailure[] }
  | { id: number; ok: true; kind: 'generate'; pdf: Uint8Array; fields: FieldDef[]; pageCount: number }
  | { id: number; ok: true; kind: 'verify'; verification: Verification }
  // `tsaFailures`: the seal failed because no TSA gave a timestamp (TimestampUnavailableError).
  // `certificate`: the signing certificate was refused (SigningCertificateRefusedError).
  | { id: number; ok: false; rejection?: PdfRejectionCode; message: string; tsaFailures?: TsaFailure[]; certificate?: 'revoked' | 'expired' };

/** The worker's first message; `tid` lets the pool read the thread's CPU time (Linux). */
export interface WorkerReady { ready: true; tid: number | undefined }

export interface PoolWorkerData {
  /** Cap on any one decoded stream (decoded data lives outside the capped heap). */
  maxDecodedStreamBytes: number;
  /** CPU time the trial fill at import may take: a fraction of a fill job's limit, for headroom. */
  trialFillCpuMs: number;
}
