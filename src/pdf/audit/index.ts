// The audit area: the pages sealing appends (the audit trail, extra signers' signatures) and the
// layout they share.
export { appendAuditTrail, auditLocale, formatTime, hanStyleOf, type AuditRecipient, type AuditTrail, type SealFacts } from './audit-page.js';
export { appendSignaturePage, type ExtraSigner } from './signature-page.js';
export { fitCentred } from './fit.js';
export { auditTrailPdf } from './audit-document.js';
export { appendAttachments, type AttachedFile, type PlacedAttachment } from './attachment-pages.js';
