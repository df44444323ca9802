// Public face of the PDF layer. Areas: inspect/ (reading uploads), fill/ (drawing values, with text
// layout and fonts), pool/ (the worker threads all PDF work runs in), sample/ (the built-in template),
// seal/ (the signed final document and the service certificate), audit/ (the pages sealing appends).
// shared/ holds what several areas use (geometry, option names, the decode guard); field.ts and
// work.ts are the vocabulary of all of them. An area reaches another only through that area's
// index.ts, and code outside src/pdf only through this file (test/pdf/areas.test.ts).
export * from './field.js';
export * from './work.js';
export { type DetectedTemplate } from './inspect/index.js';
export { createPdfRenderer, type PdfRenderer } from './fill/index.js';
export { createPdfInspector, createPdfWork, type PdfInspector, type PdfInspectorOptions, type PdfWork } from './pool/inspector.js';
export { type PdfPool, type PdfPoolOptions } from './pool/pdf-pool.js';
export { makeSampleTemplatePdf, type SampleTemplate } from './sample/index.js';
export { layoutForm, type LaidOutForm, type LayoutField, type LayoutRequest } from './generate/index.js';
export {
  GENERATED_CERT_FILE, loadSigningCertificate, sealPdf, SigningCertificateError,
  type Mark, type SealRequest, type SigningCertificate, type SigningCertificateOptions,
} from './seal/index.js';
export { type AuditRecipient, type AuditTrail, type ExtraSigner } from './audit/index.js';
