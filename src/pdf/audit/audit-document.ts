// The audit trail as a PDF of its own (GET /api/v1/forms/{id}/audit-trail): the same pages sealing
// appends, in a new document.
import { PDFDocument } from '@cantoo/pdf-lib';
import { t } from '../../lib/i18n/index.js';
import { DocumentFonts } from '../fill/index.js';
import { PRODUCER } from '../shared/document-info.js';
import { appendAuditTrail, auditLocale, hanStyleOf, type AuditTrail, type SealFacts } from './audit-page.js';

export async function auditTrailPdf(audit: AuditTrail, facts: SealFacts): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const locale = auditLocale(audit);
  doc.setTitle(`${t(locale, 'audit.title')}: ${audit.formName ?? audit.formId}`);
  doc.setLanguage(locale);
  doc.setProducer(PRODUCER);
  doc.setCreationDate(facts.signingTime);
  doc.setModificationDate(facts.signingTime);
  await appendAuditTrail(doc, new DocumentFonts(doc, hanStyleOf(locale)), audit, facts);
  return doc.save();
}
