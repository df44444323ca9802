import fs from 'node:fs';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { GENERATED_CERT_FILE, loadSigningCertificate, PdfRejectedError, verifyPdf, type ServiceCertificates, type Verification } from '../pdf/index.js';
import { OperatorError, print, UsageError } from './output.js';

// `formsign verify FILE.pdf [--json]`: what a PDF's signatures prove, offline — no server, no
// database. The service's certificate (SIGNING_CERT_P12, or the one generated in DATA_DIR) is read
// only to say whether this service sealed the file; none is generated here. Exit status: 0 when the
// PDF is signed, intact, unmodified after signing and every signature is valid; 3 when it is not;
// 1 when the file cannot be read as a PDF; 2 for a wrong command line.

export const VERIFY_USAGE = '  verify FILE.pdf [--json]                check the signatures of a PDF (offline)';
/** The exit status of a PDF that does not verify (readable, but not intact, modified or unsigned). */
export const NOT_VERIFIED_EXIT = 3;

export async function verifyCommand(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true, strict: true });
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new UsageError(`usage: formsign verify FILE.pdf [--json]`);
  const bytes = readPdf(file);
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

function readPdf(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') throw new OperatorError(`File not found: ${file}`);
    if (code === 'EISDIR') throw new OperatorError(`${file} is a folder; give a file`);
    throw new OperatorError(`Cannot read ${file} (${String(code ?? error)})`);
  }
}

function serviceCertificates(config: Config): ServiceCertificates | undefined {
  if (config.signingCert) {
    const cert = loadSigningCertificate({ p12Path: config.signingCert.p12Path, password: config.signingCert.password, dataDir: config.dataDir, serviceName: 'Formsign' });
    return { certificateDer: cert.certificateDer, chainDer: cert.chainDer };
  }
  const generated = path.join(config.dataDir, GENERATED_CERT_FILE);
  if (!fs.existsSync(generated)) return undefined;
  return { certificateDer: new X509Certificate(fs.readFileSync(generated)).raw, chainDer: [] };
}

const yes = (b: boolean): string => (b ? 'yes' : 'no');

function describe(file: string, v: Verification): string {
  const lines = [`${file}: ${verified(v) ? 'VERIFIED' : 'NOT VERIFIED'}`];
  lines.push(`  issued by this service: ${yes(v.issued_by_this_service)}${v.form_id ? ` (form ${v.form_id})` : ''}`);
  lines.push(`  intact: ${yes(v.intact)}    modified after signing: ${yes(v.modified_after_signing)}`);
  if (v.signatures.length === 0) lines.push('  no signatures');
  for (const [i, s] of v.signatures.entries()) {
    lines.push(`  ${i + 1}. ${s.kind === 'document_timestamp' ? 'document timestamp' : 'signature'} "${s.field}": ${s.valid ? 'valid' : 'INVALID'}${s.covers_whole_document ? ', covers the whole document' : ', covers part of the document'}`);
    if (s.signer_name) lines.push(`     signer: ${s.signer_name}`);
    if (s.signed_at) lines.push(`     signed at (claimed): ${s.signed_at}`);
    if (s.certificate) lines.push(`     certificate: ${s.certificate.subject}; issued by ${s.certificate.issuer}${s.certificate.self_signed ? ' (self-signed)' : ''}${s.certificate.trusted_by_service ? ' (this service)' : ''}`);
    if (s.timestamp) lines.push(`     timestamp: ${s.timestamp.time} by ${s.timestamp.tsa}: ${s.timestamp.valid ? 'valid' : 'INVALID'}`);
  }
  lines.push(`  long-term validation: DSS ${yes(v.ltv.dss)}, OCSP ${yes(v.ltv.ocsp)}, CRL ${yes(v.ltv.crl)}`);
  return lines.join('\n');
}
