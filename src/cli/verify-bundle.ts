import { MANIFEST_FILE, MANIFEST_SIGNATURE_FILE, manifestProblems } from '../lib/bundle-manifest.js';
import { unzipEntries, ZipUnreadableError } from '../lib/zip.js';
import { checkDetachedSignature, PdfRejectedError, verifyPdf, type DetachedCheck, type ServiceCertificates, type Verification } from '../pdf/index.js';
import { OperatorError } from './output.js';

// `formsign verify bundle.zip` (issue 40): an evidence bundle (GET /forms/{id}/evidence) checked
// offline — the detached CMS signature of manifest.json, then every file against the manifest's
// SHA-256, then signed.pdf as `formsign verify FILE.pdf` checks a PDF. One byte changed anywhere in a
// file of the bundle fails one of the three.

/** A bundle is a few documents of one form; anything expanding past this is not one. */
const MAX_BUNDLE_BYTES = 512 * 1024 * 1024;

export interface BundleVerification {
  object: 'evidence_bundle_verification';
  verified: boolean;
  manifest_signature: DetachedCheck;
  /** Files missing, changed or not listed; empty when every file matches the manifest. */
  file_problems: string[];
  signed_pdf: Verification | null;
}

export async function verifyBundle(file: string, bytes: Uint8Array, service: ServiceCertificates | undefined, pdfVerified: (v: Verification) => boolean): Promise<BundleVerification> {
  let files: Map<string, Uint8Array>;
  try {
    files = unzipEntries(bytes, MAX_BUNDLE_BYTES);
  } catch (err) {
    if (err instanceof ZipUnreadableError) throw new OperatorError(`${file}: ${err.message}`);
    throw err;
  }
  const manifest = files.get(MANIFEST_FILE);
  const signature = files.get(MANIFEST_SIGNATURE_FILE);
  if (!manifest || !signature) throw new OperatorError(`${file}: not an evidence bundle (it has no ${!manifest ? MANIFEST_FILE : MANIFEST_SIGNATURE_FILE})`);
  const manifestSignature = await checkDetachedSignature(signature, manifest, service);
  const problems = manifestProblems(manifest, files);
  const pdf = files.get('signed.pdf');
  let signedPdf: Verification | null = null;
  if (!pdf) problems.push('signed.pdf: missing');
  else {
    try {
      signedPdf = await verifyPdf(pdf, service);
    } catch (err) {
      if (!(err instanceof PdfRejectedError)) throw err;
      problems.push(`signed.pdf: ${err.message}`);
    }
  }
  const verified = manifestSignature.valid && problems.length === 0 && signedPdf !== null && pdfVerified(signedPdf);
  return { object: 'evidence_bundle_verification', verified, manifest_signature: manifestSignature, file_problems: problems, signed_pdf: signedPdf };
}

export function describeBundle(file: string, b: BundleVerification, describePdf: (name: string, v: Verification) => string): string {
  const s = b.manifest_signature;
  const lines = [`${file}: ${b.verified ? 'VERIFIED' : 'NOT VERIFIED'} (evidence bundle)`];
  lines.push(`  manifest signature: ${s.valid ? 'valid' : `INVALID — ${s.reason ?? ''}`}${s.signer ? `; signed by ${s.signer}` : ''}${s.issuedByThisService ? ' (this service)' : ''}`);
  lines.push(b.file_problems.length === 0 ? '  files: every file matches the manifest' : `  files:\n${b.file_problems.map((p) => `    ${p}`).join('\n')}`);
  if (b.signed_pdf) lines.push(describePdf(`  ${file}/signed.pdf`, b.signed_pdf));
  return lines.join('\n');
}
