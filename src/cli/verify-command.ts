import fs from 'node:fs';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { GENERATED_CERT_FILE, loadSigningCertificate, PdfRejectedError, readServiceCertificate, verifyPdf, type Change, type ChangeKind, type ServiceCertificates, type Verification } from '../pdf/index.js';
import { OperatorError, print, UsageError } from './output.js';
import { readInput } from './read-input.js';
import { describeBundle, verifyBundle } from './verify-bundle.js';
import { looksLikeZip } from '../lib/zip.js';

// `formsign verify FILE.pdf [--json]`: what a PDF's signatures prove, offline — no server, no
// database. The service's certificate (SIGNING_CERT_P12, else the one the service recorded in
// DATA_DIR at its last start, else the one generated there) is read only to say whether this
// service sealed the file; none is generated here. Exit status: 0 when the
// PDF is signed, intact, unmodified after signing (no revision after any signature changes more than
// validation data or metadata) and every signature is valid; 3 when it is not;
// 1 when the file cannot be read as a PDF; 2 for a wrong command line.

export const VERIFY_USAGE = '  verify FILE.pdf|BUNDLE.zip [--json]     check the signatures of a PDF or an evidence bundle (offline)';
/** The exit status of a PDF that does not verify (readable, but not intact, modified or unsigned). */
export const NOT_VERIFIED_EXIT = 3;

export async function verifyCommand(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true, strict: true });
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new UsageError(`usage: formsign verify FILE.pdf|BUNDLE.zip [--json]`);
  const bytes = readInput(file);
  if (looksLikeZip(bytes)) {
    const bundle = await verifyBundle(file, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), serviceCertificates(config), verified);
    print(values.json === true, bundle, () => describeBundle(file, bundle, describe));
    if (!bundle.verified) process.exitCode = NOT_VERIFIED_EXIT;
    return;
  }
  let result: Verification;
  try {
    result = await verifyPdf(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), serviceCertificates(config));
  } catch (err) {
    if (err instanceof PdfRejectedError) throw new OperatorError(`${file}: ${err.message}`);
    throw err;
  }
  print(values.json === true, result, () => describe(file, result));
  if (!verified(result)) process.exitCode = NOT_VERIFIED_EXIT;
}

export function verified(v: Verification): boolean {
  return v.intact && !v.modified_after_signing && v.signatures.length > 0 && v.signatures.every((s) => s.valid);
}

function serviceCertificates(config: Config): ServiceCertificates | undefined {
  if (config.signingCert) {
    const cert = loadSigningCertificate({ p12Path: config.signingCert.p12Path, password: config.signingCert.password, dataDir: config.dataDir, serviceName: 'Formsign' });
    return { certificateDer: cert.certificateDer, chainDer: cert.chainDer };
  }
  const recorded = readServiceCertificate(config.dataDir);
  if (recorded) return recorded;
  const generated = path.join(config.dataDir, GENERATED_CERT_FILE);
  if (!fs.existsSync(generated)) return undefined;
  return { certificateDer: new X509Certificate(fs.readFileSync(generated)).raw, chainDer: [] };
}

const yes = (b: boolean): string => (b ? 'yes' : 'no');

// What each kind of change is, in words. The /verify page's classic script (verify/assets/verdict.js)
// holds the same table; test/unit/change-words.test.ts fails when the two differ.
export const CHANGE_WORDS: Readonly<Record<ChangeKind, string>> = {
  validation_data: 'validation data (DSS)',
  document_timestamp: 'a document timestamp',
  metadata: 'document information or XMP metadata (not content)',
  signature_added: 'a signature',
  field_value: 'a form field value',
  annotation_added: 'an annotation',
  annotation_changed: 'an annotation changed or removed',
  field_added: 'a form field',
  page_content: 'page content',
  page_resources: 'page resources (fonts, images, forms)',
  page: 'a page',
  pages: 'the pages (added, removed or reordered)',
  catalog: 'the document catalog',
  form: 'the form',
  cross_reference: 'the cross-reference (objects switched to other versions)',
  object: 'an object',
};

function describeChange(c: Change): string {
  return `${CHANGE_WORDS[c.kind]}${c.page ? ` on page ${c.page}` : ''} (${c.object})`;
}

function describe(file: string, v: Verification): string {
  const lines = [`${file}: ${verified(v) ? 'VERIFIED' : 'NOT VERIFIED'}`];
  lines.push(`  issued by this service: ${yes(v.issued_by_this_service)}${v.form_id ? ` (form ${v.form_id})` : ''}`);
  lines.push(`  intact: ${yes(v.intact)}    modified after signing: ${yes(v.modified_after_signing)}`);
  if (v.signatures.length === 0) lines.push('  no signatures');
  for (const [i, s] of v.signatures.entries()) {
    lines.push(`  ${i + 1}. ${s.kind === 'document_timestamp' ? 'document timestamp' : 'signature'} "${s.field}": ${s.valid ? 'valid' : 'INVALID'}${s.covers_whole_document ? ', covers the whole document' : ', covers part of the document'}`);
    if (s.reason) lines.push(`     why: ${s.reason}`);
    if (s.signer_name) lines.push(`     signer: ${s.signer_name}`);
    if (s.signed_at) lines.push(`     signed at (claimed): ${s.signed_at}`);
    if (s.certificate) lines.push(`     certificate: ${s.certificate.subject}; issued by ${s.certificate.issuer}${s.certificate.self_signed ? ' (self-signed)' : ''}${s.certificate.trusted_by_service ? ' (this service)' : ''}`);
    if (s.timestamp) lines.push(`     timestamp: ${s.timestamp.time} by ${s.timestamp.tsa}: ${s.timestamp.valid ? 'valid' : 'INVALID'}`);
    lines.push(`     changed after it: ${s.modification_level}${s.changes.length > 0 ? ` — ${s.changes.map(describeChange).join('; ')}` : ''}`);
  }
  lines.push(`  long-term validation: DSS ${yes(v.ltv.dss)}, OCSP ${yes(v.ltv.ocsp)}, CRL ${yes(v.ltv.crl)}`);
  return lines.join('\n');
}
