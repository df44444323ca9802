// The verifier: every signature of a PDF checked on its own (its byte ranges against its CMS, its
// CMS against its certificate, its timestamp against what it stamps, its certificate against its
// validity and the revocation data the file carries), what every revision after each signature
// changes (difference analysis, after-signing.ts), and whether this service sealed it. Runs in a pool
// worker thread (pool/worker-job.ts) or in the CLI's process; a PDF pdf-lib cannot read at all is
// refused as pdf_invalid, anything else is answered.
import { X509Certificate } from 'node:crypto';
import { decodePDFRawStream, ParseSpeeds, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString, type PDFObject } from '@cantoo/pdf-lib';
import { PdfRejectedError } from '../field.js';
import { FORM_ID_KEY } from '../shared/document-info.js';
import { AfterSigning } from './after-signing.js';
import { checkCms, oneLine, type CmsCheck } from './cms-check.js';
import { unchangedContent } from './diff-analysis.js';
import { revokedBy } from './revocation-data.js';
import { findSignatures, type FoundSignature } from './signature-fields.js';
import { checkTimestampToken } from './timestamp.js';
import type { CertificateSummary, ServiceCertificates, SignatureSummary, Verification } from './verification.js';

const FORM_ID = /^form_[0-9A-Za-z]{24}$/;
const DOC_TIMESTAMP = 'ETSI.RFC3161';
const N = (s: string): PDFName => PDFName.of(s);

interface Checked {
  found: FoundSignature;
  summary: SignatureSummary;
  /** The signed ranges' digest matched. */
  intact: boolean;
  /** Where its coverage ends (bytes after it were added later). */
  end: number;
  serviceSigned: boolean;
  /** The signer's certificate, for the validity and revocation checks. */
  certificate?: X509Certificate;
}

export async function verifyPdf(bytes: Uint8Array, service: ServiceCertificates | undefined): Promise<Verification> {
  if (!looksLikePdf(bytes)) throw new PdfRejectedError('pdf_invalid', 'This file is not a PDF (it does not start with %PDF-).');
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, parseSpeed: ParseSpeeds.Fastest, throwOnInvalidObject: false });
  } catch (err) {
    throw new PdfRejectedError('pdf_invalid', `This PDF could not be read (${err instanceof Error ? err.message.split('\n')[0] : String(err)}).`);
  }
  const trusted = serviceTrust(service);
  // Strings in an encrypted file's signature dictionaries (/Name, /M) are encrypted too: not shown.
  const found = findSignatures(doc).map((f) => (doc.isEncrypted ? { ...f, name: undefined, claimedTime: undefined } : f));
  const after = new AfterSigning(bytes);
  const revocation = revocationData(doc);
  const checked = found.map((f) => checkSignature(bytes, f, trusted));
  for (const c of checked) {
    const diff = after.analyse(c.end);
    c.summary.modification_level = diff.level;
    c.summary.changes = diff.changes;
    if (c.summary.kind === 'signature' && c.summary.valid && c.certificate) {
      const reason = certificateProblem(c.certificate, c.summary, revocation);
      if (reason) {
        c.summary.valid = false;
        c.summary.reason = reason;
      }
    }
  }
  const approvals = checked.filter((c) => c.summary.kind === 'signature');
  const modified = checked.some((c) => !unchangedContent(c.summary.modification_level));
  const ours = approvals.find((c) => c.serviceSigned && c.summary.valid);
  const formId = ours ? formIdIn(after, ours.end) : undefined;
  return {
    object: 'verification',
    issued_by_this_service: ours !== undefined && formId !== undefined,
    ...(formId ? { form_id: formId } : {}),
    intact: checked.length > 0 && checked.every((c) => c.intact),
    modified_after_signing: modified,
    signatures: checked.map((c) => c.summary),
    ltv: ltvOf(doc),
  };
}

function looksLikePdf(bytes: Uint8Array): boolean {
  // The header may follow up to 1024 bytes of junk (PDF 32000 7.5.2, as readers allow).
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024 + 5)).includes('%PDF-');
}

interface Trust { own: Buffer | undefined; issuers: X509Certificate[] }

function serviceTrust(service: ServiceCertificates | undefined): Trust {
  if (!service) return { own: undefined, issuers: [] };
  return { own: Buffer.from(service.certificateDer), issuers: service.chainDer.map((d) => new X509Certificate(Buffer.from(d))) };
}

function checkSignature(bytes: Uint8Array, found: FoundSignature, trust: Trust): Checked {
  const kind = found.subFilter === DOC_TIMESTAMP ? 'document_timestamp' : 'signature';
  const range = found.byteRange;
  const base: SignatureSummary = {
    kind,
    field: found.field,
    ...(found.name ? { signer_name: found.name } : {}),
    signed_at: found.claimedTime?.toISOString() ?? null,
    covers_whole_document: false,
    valid: false,
    certificate: null,
    modification_level: 'none',
    changes: [],
  };
  const contents = range ? gapContents(bytes, range) : undefined;
  if (!range || !contents) return { found, summary: { ...base, reason: 'The signature has no readable byte range or contents.' }, intact: false, end: range ? range[2] + range[3] : bytes.length, serviceSigned: false };
  const [a, b, c, d] = range;
  const chunks = [bytes.subarray(a, a + b), bytes.subarray(c, c + d)];
  const summary: SignatureSummary = { ...base, covers_whole_document: a === 0 && c + d === bytes.length };
  const end = c + d;
  try {
    let cms: CmsCheck;
    let intact: boolean;
    if (kind === 'document_timestamp') {
      const token = checkTimestampToken(contents, chunks);
      cms = token.cms;
      // A document timestamp's imprint is the digest of its byte ranges.
      intact = token.imprintMatches;
      summary.timestamp = token.summary;
      summary.signed_at = token.summary.time;
      summary.valid = token.summary.valid;
    } else {
      cms = checkCms(contents, chunks);
      intact = cms.digestMatches;
      summary.valid = cms.digestMatches && cms.signatureVerifies;
      if (summary.signed_at === null && cms.signingTime) summary.signed_at = cms.signingTime.toISOString();
      if (cms.timestampToken) {
        try {
          summary.timestamp = checkTimestampToken(cms.timestampToken, [cms.signatureValue]).summary;
        } catch {
          summary.timestamp = { time: '', tsa: 'unreadable timestamp token', valid: false };
        }
      }
    }
    summary.certificate = cms.certificate ? describeCertificate(cms.certificate, trust) : null;
    if (!summary.signer_name && cms.certificate) summary.signer_name = commonName(cms.certificate);
    const serviceSigned = trust.own !== undefined && cms.certificate !== undefined && Buffer.from(cms.certificate.raw).equals(trust.own);
    if (!summary.valid) summary.reason = intact ? 'The signature does not verify with its certificate.' : 'The signed bytes were changed: their digest does not match the signature.';
    return { found, summary, intact, end, serviceSigned, ...(cms.certificate ? { certificate: cms.certificate } : {}) };
  } catch {
    // A /Contents that is not a CMS we can read: listed, neither valid nor intact.
    return { found, summary: { ...summary, reason: 'The signature is not a CMS signature this verifier can read.' }, intact: false, end, serviceSigned: false };
  }
}

/** The hex string between ByteRange's two parts, decoded; undefined when the range does not frame one. */
function gapContents(bytes: Uint8Array, [a, b, c, d]: [number, number, number, number]): Uint8Array | undefined {
  if (a + b > c || c + d > bytes.length || c - b < 2) return undefined;
  if (bytes[b] !== 0x3c || bytes[c - 1] !== 0x3e) return undefined;
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset + b + 1, c - b - 2).toString('latin1').replace(/\s+/g, '');
  if (!/^[0-9A-Fa-f]*$/.test(hex)) return undefined;
  return Buffer.from(hex.length % 2 === 0 ? hex : `${hex}0`, 'hex');
}

function describeCertificate(cert: X509Certificate, trust: Trust): CertificateSummary {
  const raw = Buffer.from(cert.raw);
  let selfSigned = false;
  try {
    selfSigned = cert.subject === cert.issuer && cert.verify(cert.publicKey);
  } catch {
    selfSigned = false;
  }
  const trusted = (trust.own !== undefined && raw.equals(trust.own))
    || trust.issuers.some((issuer) => {
      try {
        return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
      } catch {
        return false;
      }
    });
  return { subject: oneLine(cert.subject), issuer: oneLine(cert.issuer), self_signed: selfSigned, trusted_by_service: trusted };
}

function commonName(cert: X509Certificate): string | undefined {
  return /(?:^|\n)CN=([^\n]*)/.exec(cert.subject)?.[1];
}

/** The form id in the information dictionary of the revision the service's signature covers. */
function formIdIn(after: AfterSigning, end: number): string | undefined {
  // A later update could add or change the id; the signed revision's is the one the seal vouches for.
  const value = after.signedInfo(end)?.get(N(FORM_ID_KEY));
  const id = value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;
  return id && FORM_ID.test(id) ? id : undefined;
}

interface RevocationData { ocsps: Uint8Array[]; crls: Uint8Array[] }

/** The OCSP responses and CRLs of the document's DSS (its arrays and its per-signature VRI entries). */
function revocationData(doc: PDFDocument): RevocationData {
  const out: RevocationData = { ocsps: [], crls: [] };
  const dss = doc.catalog.lookupMaybe(N('DSS'), PDFDict);
  if (!dss) return out;
  const collect = (list: PDFObject | undefined, into: Uint8Array[]): void => {
    const array = list instanceof PDFArray ? list : undefined;
    for (const item of array?.asArray() ?? []) {
      const stream = doc.context.lookup(item);
      if (!(stream instanceof PDFRawStream)) continue;
      try {
        into.push(decodePDFRawStream(stream).decode());
      } catch {
        // An undecodable stream says nothing.
      }
    }
  };
  collect(dss.lookup(N('OCSPs')), out.ocsps);
  collect(dss.lookup(N('CRLs')), out.crls);
  const vri = dss.lookupMaybe(N('VRI'), PDFDict);
  for (const [, v] of vri?.entries() ?? []) {
    const entry = v instanceof PDFDict ? v : doc.context.lookup(v);
    if (!(entry instanceof PDFDict)) continue;
    collect(entry.lookup(N('OCSP')), out.ocsps);
    collect(entry.lookup(N('CRL')), out.crls);
  }
  return out;
}

/**
 * Why a signer's certificate could not sign when it did: expired or not yet valid, or revoked by
 * the OCSP responses or CRLs the file carries. "When" is the signature timestamp's time if it has a
 * valid one, else the time the signer claims; a revocation is only forgiven when a timestamp proves
 * the signature older than it.
 */
function certificateProblem(cert: X509Certificate, summary: SignatureSummary, data: RevocationData): string | undefined {
  const stamped = summary.timestamp?.valid ? Date.parse(summary.timestamp.time) : Number.NaN;
  const claimed = summary.signed_at ? Date.parse(summary.signed_at) : Number.NaN;
  const at = Number.isFinite(stamped) ? stamped : Number.isFinite(claimed) ? claimed : Date.now();
  const from = Date.parse(cert.validFrom);
  const to = Date.parse(cert.validTo);
  const day = (t: number): string => new Date(t).toISOString();
  if (Number.isFinite(to) && at > to) return `The signer's certificate had expired when it signed (valid until ${day(to)}, signed ${day(at)}).`;
  if (Number.isFinite(from) && at < from) return `The signer's certificate was not yet valid when it signed (valid from ${day(from)}, signed ${day(at)}).`;
  const revoked = revokedBy(cert, data.ocsps, data.crls);
  if (revoked && (!Number.isFinite(stamped) || revoked.at.getTime() <= stamped)) {
    return `The signer's certificate is revoked (since ${day(revoked.at.getTime())}, says ${revoked.source === 'OCSP' ? 'an OCSP response' : 'a CRL'} the file carries).`;
  }
  return undefined;
}

function ltvOf(doc: PDFDocument): Verification['ltv'] {
  const dss = doc.catalog.lookupMaybe(N('DSS'), PDFDict);
  const nonEmpty = (obj: PDFObject | undefined): boolean => obj instanceof PDFArray && obj.size() > 0;
  if (!dss) return { dss: false, ocsp: false, crl: false };
  // Also inside the per-signature VRI entries, where some writers put them instead.
  const vri = dss.lookupMaybe(N('VRI'), PDFDict);
  const inVri = (key: string): boolean => !!vri && vri.entries().some(([, v]) => {
    const entry = v instanceof PDFDict ? v : doc.context.lookup(v);
    return entry instanceof PDFDict && nonEmpty(entry.lookup(N(key)));
  });
  return {
    dss: true,
    ocsp: nonEmpty(dss.lookup(N('OCSPs'))) || inVri('OCSP'),
    crl: nonEmpty(dss.lookup(N('CRLs'))) || inVri('CRL'),
  };
}
