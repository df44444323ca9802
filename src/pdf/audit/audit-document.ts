// The audit trail as a PDF of its own (GET /api/v1/forms/{id}/audit-trail): the same pages sealing
// appends, in a new document.
import { PDFDocument } from '@cantoo/pdf-lib';
import { DocumentFonts } from '../fill/index.js';
import { PRODUCER } from '../shared/document-info.js';
import { appendAuditTrail, type AuditTrail, type SealFacts } from './audit-page.js';

export async function auditTrailPdf(audit: AuditTrail, facts: SealFacts): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Audit trail: ${audit.formName ?? audit.formId}`);
  doc.setProducer(PRODUCER);
  doc.setCreationDate(facts.signingTime);
  doc.setModificationDate(facts.signingTime);
  await appendAuditTrail(doc, new DocumentFonts(doc), audit, facts);
  return doc.save();
}
