// Sealing: the filled document's form flattened into its pages, what signers added drawn in (their
// signatures, initials and dates), extra signers' page and the audit trail appended, then the whole
// signed with a PAdES signature by the service certificate. A pure function of its inputs, except for
// the TSAs it asks when there are any: then the signature carries an RFC 3161 timestamp (B-T), and
// the DSS and a document timestamp follow (B-LTA, ltv.ts); if no TSA answers, nothing is sealed.
import { ParseSpeeds, PDFDict, PDFDocument, PDFHexString, PDFName } from '@cantoo/pdf-lib';
import { appendAuditTrail, appendSignaturePage, auditLocale, hanStyleOf, type AuditTrail, type ExtraSigner } from '../audit/index.js';
import { DocumentFonts } from '../fill/index.js';
import type { FieldDef } from '../field.js';
import { sha256Hex } from '../../lib/crypto.js';
import { FORM_ID_KEY, PRODUCER } from '../shared/document-info.js';
import type { SealResult, TsaFailure, TsaSettings } from '../work.js';
import type { SigningCertificate } from './certificate.js';
import { flattenForm } from './flatten.js';
import { appendValidationData } from './ltv.js';
import { saveSigned, TIMESTAMP_ROOM } from './pades.js';
import { fetchRevocation } from './revocation.js';
import { requestTimestamp, sha256 } from './timestamp.js';
import { drawDates, drawMarks, type Mark } from './stamp-marks.js';

export interface SealRequest {
  /** The filled, unsigned PDF, as the fill stage renders it. */
  document: Uint8Array;
  /** The form's field definitions. */
  fields: readonly FieldDef[];
  /** Signature and initials images (PNG), by field name. */
  marks: readonly Mark[];
  /** date_signed field name → 'YYYY-MM-DD'. */
  dates: Readonly<Record<string, string>>;
  /** Recipients beyond the template's signer slots: they sign on an added page. */
  extraSigners: readonly ExtraSigner[];
  audit: AuditTrail;
  signingTime: Date;
}

/** The sealed document, B-B (no TSA). */
export async function sealPdf(req: SealRequest, cert: SigningCertificate): Promise<Uint8Array> {
  return (await sealPdfWithEvidence(req, cert)).pdf;
}

/** The sealed document: B-B without TSAs; with them B-LTA, or TimestampUnavailableError when none answers. */
export async function sealPdfWithEvidence(req: SealRequest, cert: SigningCertificate, tsa?: TsaSettings): Promise<SealResult> {
  // The audit page states this hash; it must be the one of the bytes actually sealed.
  if (sha256Hex(req.document) !== req.audit.filledSha256?.toLowerCase()) {
    throw new RangeError('audit.filledSha256 is not the SHA-256 of the document being sealed');
  }
  // Parsed (and saved, pades.ts) in one go: pdf-lib's default yields to the event loop every 50-100
  // objects with setTimeout, which costs more than the work on a busy process. Sealing runs in a
  // worker thread, where there is nothing to yield to.
  const doc = await PDFDocument.load(req.document, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  const pages = doc.getPages();
  flattenForm(doc, pages);
  // Viewers that render the document themselves (XFA's NeedsRendering) would ignore what is drawn.
  doc.catalog.delete(PDFName.of('NeedsRendering'));
  await drawMarks(doc, req.fields, req.marks);
  await drawDates(doc, req.fields, req.dates);
  const locale = auditLocale(req.audit);
  const fonts = new DocumentFonts(doc, hanStyleOf(locale));
  await appendSignaturePage(doc, fonts, req.extraSigners, locale);
  await appendAuditTrail(doc, fonts, req.audit, { signingTime: req.signingTime, sealedBy: cert.subject });
  doc.setModificationDate(req.signingTime);
  // The form's name (not the template's) as the title viewers show; the form id for the verifier.
  if (req.audit.formName) doc.setTitle(req.audit.formName, { showInWindowTitleBar: true });
  doc.setProducer(PRODUCER);
  const infoDict = doc.context.lookup(doc.context.trailerInfo.Info);
  if (infoDict instanceof PDFDict) infoDict.set(PDFName.of(FORM_ID_KEY), PDFHexString.fromText(req.audit.formId));
  const last = doc.getPages().at(-1)!;
  const info = { signingTime: req.signingTime, reason: `Signed by ${req.audit.recipients.map((r) => r.name).join(', ') || 'the recipients'}; sealed by the service` };
  if (!tsa || tsa.urls.length === 0) return { pdf: await saveSigned(doc, last, cert, info), level: 'B-B', tsaFailures: [] };

  const tsaFailures: TsaFailure[] = [];
  const tsaCertificates: Uint8Array[] = [];
  const stamp = async (digest: Buffer): Promise<Uint8Array> => {
    // The signature's timestamp first, then the document timestamp: each asks the TSAs in order, and
    // when none answers (TimestampUnavailableError) the seal is not written.
    const { timestamp, failures } = await requestTimestamp(tsa, digest);
    tsaFailures.push(...failures);
    tsaCertificates.push(...timestamp.certificates);
    return timestamp.token;
  };
  const signed = await saveSigned(doc, last, cert, info, (signatureValue) => stamp(sha256(signatureValue)));
  const chain = [cert.certificateDer, ...cert.chainDer];
  const revocation = await fetchRevocation(chain, tsa.timeoutMs);
  const certificates = [...new Map([...chain, ...tsaCertificates].map((c) => [sha256Hex(c), c])).values()];
  const pdf = await appendValidationData(doc, signed, last, { certificates, ...revocation }, stamp, TIMESTAMP_ROOM);
  return { pdf, level: 'B-LTA', tsaFailures };
}
