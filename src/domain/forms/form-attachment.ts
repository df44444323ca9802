import { findFormAttachment } from '../../db/repositories/form-attachments.js';
import { findForm } from '../../db/repositories/forms.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';

export interface AttachmentFile {
  filename: string;
  contentType: string;
  sha256: string;
  bytes: Uint8Array;
}

/**
 * `GET /forms/{id}/attachments/{attachment_id}` (issue 41): a file a signer attached and signed with,
 * as uploaded. Scoped to the key's partition: another account's or mode's file, a file still being
 * chosen on the signing page, and a purged form's file are all "not found".
 */
export async function readFormAttachment(deps: Pick<DomainDeps, 'db' | 'blobs'>, p: Partition, formId: string, attachmentId: string): Promise<AttachmentFile> {
  const form = await findForm(deps.db, p, formId);
  if (!form) throw notFound('form', formId, 'form_id');
  const row = await findFormAttachment(deps.db, p, form.id, attachmentId);
  if (!row || row.submitted_at === null) throw notFound('attachment', attachmentId, 'attachment_id');
  const bytes = await deps.blobs.get(row.blob_key);
  if (!bytes) throw notFound('attachment', attachmentId, 'attachment_id');
  return { filename: row.filename, contentType: row.content_type, sha256: row.sha256, bytes };
}
