import { findSealedFile } from '../../db/repositories/sealed-files.js';
import type { SealedFileRow } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { json, str, type Json } from '../json.js';
import type { components } from '../../generated/api.js';
import { loadForm } from './read-forms.js';

export type SignedPdfView = components['schemas']['SignedPdf'];

/** How long a presigned address to a signed PDF works (CONTRACT.md Part A). */
export const FILE_LINK_SECONDS = 3600;

export function signedPdfFilename(formId: string): string {
  return `${formId}-signed.pdf`;
}

async function sealedFileOf(deps: Pick<DomainDeps, 'db'>, p: Partition, formId: string): Promise<SealedFileRow> {
  const form = await loadForm(deps, p, formId);
  const file = form.status === 'signed' ? await findSealedFile(deps.db, p, form.id) : undefined;
  if (!file) throw new AppError('form_not_signed', `This form is ${form.status}; its signed PDF exists once every recipient has signed and it has been sealed.`);
  return file;
}

/** `format=url`: the presigned address of the signed PDF, valid for an hour and needing no key. */
export async function signedPdfAddress(deps: Pick<DomainDeps, 'db' | 'clock' | 'fileLinks' | 'baseUrl'>, p: Partition, formId: string): Promise<string> {
  const file = await sealedFileOf(deps, p, formId);
  const expiresAt = Math.floor(deps.clock.now().getTime() / 1000) + FILE_LINK_SECONDS;
  return `${deps.baseUrl}/api/v1/files/pdf/${deps.fileLinks.sign({ formId: file.form_id, partition: p, expiresAt })}`;
}

/** `format=base64`: the signed PDF in the contract's JSON wrapper. */
export async function signedPdfBase64(deps: Pick<DomainDeps, 'db' | 'blobs'>, p: Partition, formId: string): Promise<Json<SignedPdfView>> {
  const file = await sealedFileOf(deps, p, formId);
  const bytes = await readSealed(deps, file);
  return json(
    `{"object":"signed_pdf","form_id":${str(file.form_id)},"filename":${str(signedPdfFilename(file.form_id))},"content_type":"application/pdf",` +
      `"size":${file.size},"sha256":${str(file.sha256)},"data":"${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}"}`,
  );
}

/** The signed PDF's bytes, for a signer's download from their link (the link is the credential). */
export async function readSignedPdf(deps: Pick<DomainDeps, 'db' | 'blobs'>, p: Partition, formId: string): Promise<{ pdf: Uint8Array; filename: string }> {
  const file = await sealedFileOf(deps, p, formId);
  return { pdf: await readSealed(deps, file), filename: signedPdfFilename(formId) };
}

async function readSealed(deps: Pick<DomainDeps, 'blobs'>, file: SealedFileRow): Promise<Uint8Array> {
  const bytes = await deps.blobs.get(file.blob_key);
  // The row is written after the file, in the transaction that made the form signed: a miss is a broken store.
  if (!bytes) throw new Error(`the sealed file ${file.blob_key} of ${file.form_id} is missing from the blob store`);
  return bytes;
}

/**
 * A presigned download: the token is the only credential. An altered token, or one naming no file,
 * is not found (so a guess learns nothing); an intact one past its hour has expired.
 */
export async function downloadSignedPdf(deps: Pick<DomainDeps, 'db' | 'blobs' | 'clock' | 'fileLinks'>, token: string): Promise<{ pdf: Uint8Array; filename: string }> {
  const checked = deps.fileLinks.check(token, Math.floor(deps.clock.now().getTime() / 1000));
  if (!checked.ok) {
    if (checked.reason === 'expired') throw new AppError('link_expired', 'This download address has expired (they work for one hour); ask the API for a new one with GET /api/v1/forms/{form_id}/signed-pdf.');
    throw new AppError('resource_not_found', 'No file is at this address.');
  }
  const { formId, partition } = checked.claim;
  const file = await findSealedFile(deps.db, partition, formId);
  if (!file) throw new AppError('resource_not_found', 'No file is at this address.');
  return { pdf: await readSealed(deps, file), filename: signedPdfFilename(formId) };
}
