import { listSignaturesOfForm } from '../../db/repositories/signatures.js';
import type { SignatureRow } from '../../db/tables.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Partition } from '../../lib/partition.js';
import type { FieldValue } from '../../pdf/field.js';
import type { DomainDeps } from '../context.js';
import { ownSignatureField } from './sign-form.js';

// What the seal job needs from the signing page: the submitted values (merged into `forms.values` as
// each recipient signs; `date_signed` fields hold the signing date as YYYY-MM-DD, signature and
// initials fields `sha256:<hex>` of their image) and every image with the field it fills.

export interface SignedImage {
  /** The field it fills; null for the signature of a recipient with no signature field (added page). */
  fieldName: string | null;
  recipientId: string;
  kind: 'signature' | 'initials';
  method: 'drawn' | 'typed';
  png: Uint8Array;
  sha256: string;
  /** Pixels: the seal fits the image into the field's rectangle keeping this aspect ratio. */
  width: number;
  height: number;
  signedAt: string;
}

export interface SigningRecord {
  values: Record<string, FieldValue>;
  images: SignedImage[];
}

/**
 * A form's signing record, each image read from the blob store and checked against the SHA-256 kept
 * when it was signed (a missing or altered image throws: sealing must not go on without it).
 */
export async function loadSigningRecord(deps: Pick<DomainDeps, 'db' | 'blobs'>, p: Partition, formId: string, valuesJson: string): Promise<SigningRecord> {
  const rows = await listSignaturesOfForm(deps.db, p, formId);
  const images = await Promise.all(rows.map((row) => loadImage(deps, row)));
  return { values: JSON.parse(valuesJson) as Record<string, FieldValue>, images };
}

async function loadImage(deps: Pick<DomainDeps, 'blobs'>, row: SignatureRow): Promise<SignedImage> {
  const png = await deps.blobs.get(row.blob_key);
  if (!png) throw new Error(`signature image ${row.blob_key} of ${row.form_id} is missing from the blob store`);
  if (sha256Hex(png) !== row.sha256) throw new Error(`signature image ${row.blob_key} of ${row.form_id} does not match its recorded SHA-256`);
  return {
    fieldName: row.field_name === ownSignatureField(row.recipient_id) ? null : row.field_name,
    recipientId: row.recipient_id,
    kind: row.kind,
    method: row.method,
    png,
    sha256: row.sha256,
    width: row.width,
    height: row.height,
    signedAt: row.created_at,
  };
}
