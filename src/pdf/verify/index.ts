// The verify area: what a PDF's signatures prove (verify-pdf.ts), in the shapes of verification.ts.
export { verifyPdf } from './verify-pdf.js';
export type { Change, ChangeKind, CertificateSummary, ModificationLevel, ServiceCertificates, SignatureSummary, TimestampSummary, Verification } from './verification.js';
export { checkDetachedSignature, type DetachedCheck } from './detached-signature.js';
