// Sealing: the template filled (in the same parse: the seal job's one PDF job) or a filled document,
// its form flattened into its pages, what signers added drawn in (their
// signatures, initials and dates), extra signers' page and the audit trail appended, then the whole
// signed with a PAdES signature by the service certificate. A pure function of its inputs, except for
// the TSAs, OCSP responders and CRL servers it asks: with TSAs the signature carries an RFC 3161
// timestamp (B-T), and the DSS (every chain's certificates and the revocation data fetched for them)
// and a document timestamp follow (ltv.ts); the level says what that data actually covers. If no TSA
// answers, nothing is sealed; nor when the signing certificate is revoked or expired.
import { X509Certificate } from 'node:crypto';
import { ParseSpeeds, PDFDict, PDFDocument, PDFHexString, PDFName, type PDFPage } from '@cantoo/pdf-lib';
import { appendAttachments, appendAuditTrail, appendSignaturePage, auditLocale, hanStyleOf, type AttachedFile, type AuditTrail, type ExtraSigner } from '../audit/index.js';
import { DocumentFonts, drawFlatField, fillDocument, loadTemplate } from '../fill/index.js';
import type { FieldDef, FieldValue } from '../field.js';
import { sha256Hex } from '../../lib/crypto.js';
import { FORM_ID_KEY, PRODUCER } from '../shared/document-info.js';
import { deflateContentsNatively, deflateEmbeddedNatively } from '../shared/native-deflate.js';
import { certificateRefusal, type SealResult, type TsaFailure, type TsaSettings } from '../work.js';
import type { SigningCertificate } from './certificate.js';
import { flattenForm } from './flatten.js';
import { appendDssUpdate, appendValidationData } from './ltv.js';
import { saveSigned, TIMESTAMP_ROOM, type SignatureInfo } from './pades.js';
import { fetchRevocation, isSelfSigned, type Revocation } from './revocation.js';
import { requestTimestamp, sha256 } from './timestamp.js';
import { drawDates, drawMarks, type Mark } from './stamp-marks.js';

// Without TSAs (no TSA_TIMEOUT_MS to go by), how long an OCSP responder or CRL server may take.
const REVOCATION_TIMEOUT_MS = 10_000;

export interface SealRequest {
  /**
   * With `values`, the stored template, filled in the same parse (the seal job: one parse, one
   * thread). Without, a document already filled (as the fill stage renders it).
   */
  document: Uint8Array;
  /** The values to fill `document` with first (the fill stage's, fill/renderer.ts). */
  values?: Readonly<Record<string, FieldValue>> | undefined;
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
  /**
   * Files the signers attached (issue 41), in order, each with the attachment field it was given in:
   * the field names them, and they are appended after the document (before the audit trail).
   */
  attachments?: ReadonlyArray<AttachedFile & { field: string }>;
}

/** The sealed document, B-B (no TSA). */
export async function sealPdf(req: SealRequest, cert: SigningCertificate): Promise<Uint8Array> {
  return (await sealPdfWithEvidence(req, cert)).pdf;
}

/**
 * The sealed document: B-B without TSAs; with them B-T to B-LTA (SealLevel), or
 * TimestampUnavailableError when none answers; SigningCertificateRefusedError when the certificate is
 * revoked or expired.
 */
export async function sealPdfWithEvidence(req: SealRequest, cert: SigningCertificate, tsa?: TsaSettings): Promise<SealResult> {
  // The audit page states this hash; it must be the one of the bytes actually sealed. Filled here,
  // the document never exists as a file of its own: there is nothing such a hash could be of.
  if (req.values ? req.audit.filledSha256 != null : sha256Hex(req.document) !== req.audit.filledSha256?.toLowerCase()) {
    throw new RangeError(req.values
      ? 'audit.filledSha256 must be null when the seal fills the template itself: no filled file exists to hash'
      : 'audit.filledSha256 is not the SHA-256 of the document being sealed');
  }
  // The certificate first: a revoked or expired one seals nothing, and costs no TSA request.
  const sealChain = await checkSigningCertificate(cert, req.signingTime, tsa?.timeoutMs ?? REVOCATION_TIMEOUT_MS);
  // Parsed (and saved, pades.ts) in one go: pdf-lib's default yields to the event loop every 50-100
  // objects with setTimeout, which costs more than the work on a busy process. Sealing runs in a
  // worker thread, where there is nothing to yield to.
  const doc = req.values ? await loadTemplate(req.document, true) : await PDFDocument.load(req.document, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  deflateEmbeddedNatively(doc);
  if (req.values) await fillDocument(doc, req.fields, req.values);
  const pages = doc.getPages();
  flattenForm(doc, pages);
  // Viewers that render the document themselves (XFA's NeedsRendering) would ignore what is drawn.
  doc.catalog.delete(PDFName.of('NeedsRendering'));
  const locale = auditLocale(req.audit);
  const fonts = new DocumentFonts(doc, hanStyleOf(locale));
  await drawMarks(doc, req.fields, req.marks, fonts);
  await drawDates(doc, req.fields, req.dates);
  await appendSignaturePage(doc, fonts, req.extraSigners, locale);
  const attached = req.attachments ?? [];
  await nameAttachments(doc, req.fields, attached, fonts);
  const placed = attached.length > 0 ? await appendAttachments(doc, fonts, attached, locale) : [];
  // The audit trail lists each file with the pages it became.
  await appendAuditTrail(doc, fonts, placed.length > 0 ? { ...req.audit, attachments: placed } : req.audit, { signingTime: req.signingTime, sealedBy: cert.subject });
  doc.setModificationDate(req.signingTime);
  // The form's name (not the template's) as the title viewers show; the form id for the verifier.
  if (req.audit.formName) doc.setTitle(req.audit.formName, { showInWindowTitleBar: true });
  doc.setProducer(PRODUCER);
  const infoDict = doc.context.lookup(doc.context.trailerInfo.Info);
  if (infoDict instanceof PDFDict) infoDict.set(PDFName.of(FORM_ID_KEY), PDFHexString.fromText(req.audit.formId));
  const last = doc.getPages().at(-1)!;
  // Everything is drawn: what pdf-lib would deflate while saving is deflated now, natively.
  deflateContentsNatively(doc);
  const info = { signingTime: req.signingTime, reason: `Signed by ${req.audit.recipients.map((r) => r.name).join(', ') || 'the recipients'}; sealed by the service` };
  return signSealed(doc, last, info, cert, tsa, sealChain);
}

/** Each attachment field shows the names of its files (the fill left it empty: its value is their ids). */
async function nameAttachments(doc: PDFDocument, fields: readonly FieldDef[], files: ReadonlyArray<{ field: string; filename: string }>, fonts: DocumentFonts): Promise<void> {
  for (const def of fields) {
    if (def.type !== 'attachment') continue;
    const names = files.filter((f) => f.field === def.name).map((f) => f.filename);
    if (names.length > 0) await drawFlatField(doc, { ...def, type: 'text', multiline: names.length > 1 }, names.join('\n'), fonts);
  }
}

/**
 * Before any work: the signing certificate and its issuers not expired, and none revoked
 * according to the OCSP responses or CRLs their certificates name (fetched now; a self-signed
 * certificate names none). Returns that data, for the DSS.
 */
export async function checkSigningCertificate(cert: SigningCertificate, at: Date, timeoutMs: number): Promise<Revocation> {
  const chain = [cert.certificateDer, ...cert.chainDer];
  for (const der of chain) {
    const x = certificateFacts(der);
    // Expired only: a signing time given before the certificate was made is the caller's (tests seal
    // with fixed past times and a freshly generated certificate), not a certificate gone bad.
    if (at > x.validTo) {
      throw certificateRefusal('expired', `${x.subject} expired on ${x.validTo.toISOString()}`);
    }
  }
  // Self-signed certificates only (the generated default): trust anchors, for which no OCSP response
  // or CRL exists (fetchRevocation passes them by): nothing to fetch, nothing revoked.
  if (chain.every((der) => certificateFacts(der).selfSigned)) return { ocsps: [], crls: [], covered: new Set(), revoked: [] };
  const revocation = await fetchRevocation(chain, timeoutMs);
  if (revocation.revoked.length > 0) throw certificateRefusal('revoked', `${revocation.revoked.join('; ')} says so`);
  return revocation;
}

interface CertificateFacts { readonly validTo: Date; readonly subject: string; readonly selfSigned: boolean }
// Read once per certificate (each seal checks the same ones), by the SHA-256 of its bytes.
const facts = new Map<string, CertificateFacts>();

function certificateFacts(der: Uint8Array): CertificateFacts {
  const key = sha256Hex(der);
  let f = facts.get(key);
  if (!f) {
    const x = new X509Certificate(der);
    f = { validTo: new Date(x.validTo), subject: x.subject.split('\n').join(', '), selfSigned: isSelfSigned(der) };
    if (facts.size >= 16) facts.clear();
    facts.set(key, f);
  }
  return f;
}

/**
 * Signs `doc` (sealed content, ready) with the service certificate: B-B without TSAs; with them the
 * signature timestamped, the DSS and a document timestamp, at the level what was fetched allows.
 */
async function signSealed(doc: PDFDocument, last: PDFPage, info: SignatureInfo, cert: SigningCertificate, tsa: TsaSettings | undefined, sealChain: Revocation): Promise<SealResult> {
  if (!tsa || tsa.urls.length === 0) return { pdf: await saveSigned(doc, last, cert, info), level: 'B-B', tsaFailures: [] };

  const tsaFailures: TsaFailure[] = [];
  const tsaChains: Array<readonly Uint8Array[]> = [];
  const stamp = async (digest: Buffer): Promise<Uint8Array> => {
    // The signature's timestamp first, then the document timestamp: each asks the TSAs in order, and
    // when none answers (TimestampUnavailableError) the seal is not written.
    const { timestamp, failures } = await requestTimestamp(tsa, digest);
    tsaFailures.push(...failures);
    tsaChains.push(timestamp.certificates);
    return timestamp.token;
  };
  const signed = await saveSigned(doc, last, cert, info, (signatureValue) => stamp(sha256(signatureValue)));
  const chain = [cert.certificateDer, ...cert.chainDer];
  const signatureTsa = tsaChains[0] ?? [];
  const known = new Map<string, Uint8Array>();
  /** The certificates of `certs` not in the DSS yet (each once), now counted in. */
  const add = (certs: readonly Uint8Array[]): Uint8Array[] => {
    const added: Uint8Array[] = [];
    for (const c of certs) {
      if (known.has(sha256Hex(c))) continue;
      known.set(sha256Hex(c), c);
      added.push(c);
    }
    return added;
  };
  const covered = new Set(sealChain.covered);
  const tsaRevocation = await fetchRevocation(signatureTsa, tsa.timeoutMs, covered);
  for (const c of tsaRevocation.covered) covered.add(c);
  const first = { certificates: add([...chain, ...signatureTsa]), ocsps: [...sealChain.ocsps, ...tsaRevocation.ocsps], crls: [...sealChain.crls, ...tsaRevocation.crls] };
  let pdf = await appendValidationData(doc, signed, last, first, stamp, TIMESTAMP_ROOM);
  // The document timestamp's TSA is known only now: its chain, when new, in one more DSS update.
  const documentTsa = tsaChains[1] ?? [];
  const fresh = add(documentTsa);
  if (fresh.length > 0) {
    const more = await fetchRevocation(documentTsa, tsa.timeoutMs, covered);
    for (const c of more.covered) covered.add(c);
    pdf = appendDssUpdate(doc, pdf, { certificates: fresh, ocsps: more.ocsps, crls: more.crls });
  }
  const allCovered = (certs: readonly Uint8Array[]): boolean => certs.every((c) => isSelfSigned(c) || covered.has(sha256Hex(c)));
  const level = !allCovered([...chain, ...signatureTsa]) ? 'B-T' : allCovered(documentTsa) ? 'B-LTA' : 'B-LT';
  return { pdf, level, tsaFailures };
}
