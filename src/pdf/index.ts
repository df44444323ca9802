// Public face of the PDF layer. Areas: inspect/ (reading uploads), fill/ (drawing values, with text
// layout and fonts), pool/ (the worker threads all PDF work runs in), sample/ (the built-in template),
// seal/ (the signed final document and the service certificate), audit/ (the pages sealing appends).
// shared/ holds what several areas use (geometry, option names, the decode guard); field.ts and
// work.ts are the vocabulary of all of them. An area reaches another only through that area's
// index.ts, and code outside src/pdf only through this file (test/pdf/areas.test.ts).
export * from './field.js';
export * from './work.js';
export type { DetectedTemplate } from './inspect/index.js';
export type { PdfRenderer } from './fill/index.js';
export type { PageSize } from './shared/page-sizes.js';
export { borrowedPdfWork, createPdfInspector, createPdfWork, type PdfInspector, type PdfInspectorOptions, type PdfWork } from './pool/inspector.js';
export type { PdfPool, PdfPoolOptions } from './pool/pdf-pool.js';
export type { SampleTemplate } from './sample/index.js';
export type { LaidOutForm, LayoutField, LayoutRequest } from './generate/index.js';
export type { Mark, SealRequest } from './seal/index.js';
// The certificate alone, not seal/index.ts: that one loads the signing code (pkijs, pdf-lib).
import { X509Certificate } from 'node:crypto';
import type { SigningCertificate } from './seal/certificate.js';
import type { DetachedCheck, ServiceCertificates } from './verify/index.js';
export {
  GENERATED_CERT_FILE, loadSigningCertificate, SigningCertificateError,
  type SigningCertificate, type SigningCertificateOptions,
} from './seal/certificate.js';
export type { AuditRecipient, AuditTrail, ExtraSigner, SealFacts } from './audit/index.js';
export type { Change, ChangeKind, CertificateSummary, ModificationLevel, ServiceCertificates, SignatureSummary, TimestampSummary, Verification } from './verify/index.js';
// node:fs and node:crypto only (the CLI reads it before loading the verifier).
export { readServiceCertificate, recordServiceCertificate, SEAL_CERTIFICATE_RECORD } from './verify/service-record.js';

// The main thread loads this file at every start and CLI call, and runs all PDF work in the pool's
// threads (pool/worker-job.ts imports the areas itself). So the areas that load pdf-lib, fontkit,
// pkijs or the generator's fonts are not imported here: the few calls made outside the pool load
// their area on first use. A renderer outside the pool comes from fill/index.ts (tests, benchmarks).
const onFirstCall = <A extends unknown[], R>(load: () => Promise<(...args: A) => Promise<R>>) => async (...args: A): Promise<R> => (await load())(...args);
export const makeSampleTemplatePdf = onFirstCall(async () => (await import('./sample/index.js')).makeSampleTemplatePdf);
export const layoutForm = onFirstCall(async () => (await import('./generate/index.js')).layoutForm);
export const sealPdf = onFirstCall(async () => (await import('./seal/index.js')).sealPdf);
// Typed signatures (issue 43 item 7): a name as glyph outlines in its script's styles (fontkit on first use).
export const renderSignatureStyles = onFirstCall(async () => (await import('./signature-style/index.js')).renderSignatureStyles);
export type { SignatureScript, SignatureStyle, SignatureStyles } from './signature-style/index.js';
/**
 * /readyz asks whether the signing certificate is revoked or expired (SigningCertificateRefusedError).
 * A self-signed one within its validity (the generated default) names no responder: nothing to load.
 * Self-signed as the full check reads it (subject = issuer), and signed by its own key; not checkIssued(),
 * which also asks for the CA key usage a document-signing certificate does not have: with it, every
 * start's first /readyz loaded the whole sealing code (pdf-lib, fontkit, pkijs: ~1,000 modules) on the
 * event loop to find the same answer (issue 36 item 3).
 */
export async function checkSigningCertificate(cert: SigningCertificate, at: Date, timeoutMs: number): Promise<void> {
  const x = new X509Certificate(cert.certificateDer);
  if (cert.chainDer.length === 0 && x.subject === x.issuer && x.verify(x.publicKey) && at <= new Date(x.validTo)) return;
  await (await import('./seal/index.js')).checkSigningCertificate(cert, at, timeoutMs);
}
// `formsign verify` runs the verifier in its own process (one file, no pool to start).
export const verifyPdf = onFirstCall(async () => (await import('./verify/index.js')).verifyPdf);
// The evidence bundle's manifest (issue 40): signed with the seal key, checked like a PDF signature.
export const signDetached = onFirstCall(async () => (await import('./seal/index.js')).signDetached);
export type { DetachedCheck } from './verify/index.js';
export async function checkDetachedSignature(der: Uint8Array, content: Uint8Array, service: ServiceCertificates | undefined): Promise<DetachedCheck> {
  return (await import('./verify/index.js')).checkDetachedSignature(der, content, service);
}
