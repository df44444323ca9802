import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { findTombstoneBySha256 } from '../../db/repositories/form-purge.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { JobOptions, PdfSource, ServiceCertificates, Verification } from '../../pdf/index.js';
import type { DomainDeps } from '../context.js';
import { fromPdfError } from '../pdf/pdf-errors.js';

/** The service's own certificates, as the verifier compares a PDF's signers with them. */
export function serviceCertificates(deps: Pick<DomainDeps, 'signingCertificate'>): ServiceCertificates {
  const { certificateDer, chainDer } = deps.signingCertificate;
  return { certificateDer, chainDer };
}

/** The verification, and (issue 40) when the document is the sealed PDF of a form since deleted, when that was. */
export type DocumentVerification = Verification & { form_deleted_at?: string };

/**
 * What a PDF's signatures prove (POST /api/v1/verify, the /verify page): analysed in the PDF pool,
 * never on the event loop, with the pool's CPU-time and memory limits (a hostile file ends as
 * `pdf_invalid`), and nothing stored. `owner` keeps one client's uploads from crowding out the rest.
 * A document whose SHA-256 is that of a purged form's sealed PDF (its tombstone keeps the hash) is
 * also reported as issued by this service for that form, with the date it was deleted.
 */
export async function verifyDocument(deps: Pick<DomainDeps, 'db' | 'verifyPdf' | 'signingCertificate'>, source: PdfSource, opts: JobOptions): Promise<DocumentVerification> {
  let verification: Verification;
  try {
    verification = await deps.verifyPdf(source, serviceCertificates(deps), opts);
  } catch (err) {
    throw fromPdfError(err, 'file');
  }
  const tombstone = await findTombstoneBySha256(deps.db, await sha256Of(source));
  if (!tombstone?.deleted_at) return verification;
  return { ...verification, issued_by_this_service: true, form_id: tombstone.id, form_deleted_at: tombstone.deleted_at };
}

async function sha256Of(source: PdfSource): Promise<string> {
  if (source instanceof Uint8Array) return sha256Hex(source);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(source.path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
