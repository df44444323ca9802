import { findSealedFile } from '../../db/repositories/sealed-files.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { findTemplate } from '../../db/repositories/templates.js';
import type { Partition } from '../../lib/partition.js';
import type { JobOptions } from '../../pdf/index.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { loadForm } from '../forms/read-forms.js';
import { isTerminal, TERMINAL_STATUSES } from '../forms/terminal-statuses.js';
import { fromPdfError } from '../pdf/pdf-errors.js';
import { supportedLocale } from '../../lib/i18n/index.js';
import { auditTrailOf, loadAuditContext } from '../signing/audit-record.js';
import { loadSigningRecord } from '../signing/signing-record.js';

type Deps = Pick<DomainDeps, 'db' | 'blobs' | 'auditTrailPdf' | 'signingCertificate'>;

/**
 * GET /api/v1/forms/{id}/audit-trail: the audit trail of a form that has ended, as a PDF of its own,
 * drawn in the PDF pool from the same facts the seal drew its pages from (signing/audit-record.ts).
 * For a sealed form it also states the sealed file's SHA-256. A form still open answers 409.
 */
export async function auditTrailPdf(deps: Deps, p: Partition, formId: string, job: JobOptions): Promise<{ pdf: Uint8Array; filename: string }> {
  const form = await loadForm(deps, p, formId);
  if (!isTerminal(form.status)) {
    throw new AppError('form_not_signed', `This form is ${form.status}; its audit trail exists once it has ended (${[...TERMINAL_STATUSES].join(', ')}).`);
  }
  const [recipients, record, context, sealed, template] = await Promise.all([
    listRecipientsOfForm(deps.db, p, form.id),
    loadSigningRecord(deps, p, form.id, form.values),
    loadAuditContext(deps, p, form.id),
    findSealedFile(deps.db, p, form.id),
    form.template_id ? findTemplate(deps.db, p, form.template_id) : Promise.resolve(undefined),
  ]);
  const audit = auditTrailOf({
    form, recipients, images: record.images, templateSha256: template?.pdf_sha256 ?? null,
    filledSha256: sealed?.filled_sha256 ?? null,
    completedAt: form.completed_at ?? sealed?.created_at ?? form.updated_at, outcome: form.status,
  }, { ...context, locale: supportedLocale(sealed?.audit_locale) ?? context.locale });
  const facts = {
    signingTime: new Date(sealed?.created_at ?? form.completed_at ?? form.updated_at),
    sealedBy: sealed ? deps.signingCertificate.subject : null,
  };
  try {
    const pdf = await deps.auditTrailPdf({ ...audit, sealedFileSha256: sealed?.sha256 ?? null }, facts, job);
    return { pdf, filename: `${form.id}-audit-trail.pdf` };
  } catch (err) {
    throw fromPdfError(err);
  }
}
