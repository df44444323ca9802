import { deleteAttachment, insertAttachment, listRecipientAttachments, markAttachmentsSubmitted } from '../../../db/repositories/form-attachments.js';
import type { FormAttachmentRow } from '../../../db/tables.js';
import type { Trx } from '../../../db/handles.js';
import { isoNow } from '../../../lib/clock.js';
import { sha256Hex } from '../../../lib/crypto.js';
import { newId } from '../../../lib/ids.js';
import type { Partition } from '../../../lib/partition.js';
import { attachmentRules, MAX_ATTACHMENT_BYTES, type FieldDef, type FieldValue } from '../../../pdf/field.js';
import type { DomainDeps } from '../../context.js';
import { AppError } from '../../errors.js';
import { formFields } from '../../forms/read-forms.js';
import { formFilePrefixes } from '../../forms/purge-files.js';
import { fieldWords } from '../../forms/value-rules.js';
import { refuseClosedLink } from '../../lifecycle/closed-links.js';
import { fromPdfError } from '../../pdf/pdf-errors.js';
import type { SigningLink } from '../resolve-link.js';
import { lockOpenLink } from '../lock-open-link.js';
import { cleanFilename, EXTENSIONS, imageProblem, sniffAttachmentType, typeWord } from './attachment-file.js';

// Files a signer attaches (issue 41 item 5): `POST /sign/<token>/attachments?field=<name>` takes one
// file into one of the signer's `attachment` fields, checked as template uploads are (its type by its
// content; a PDF through the same inspector, so a damaged, encrypted, signed or too complex one is
// refused with the same codes), stored in the blob store, listed on the page until the signer signs;
// `DELETE …/attachments/<id>` removes one before then. Signing binds the files kept to the form.

/** What the signing page and the upload's answer say of one file. */
export interface AttachmentView {
  object: 'attachment';
  id: string;
  field: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: string;
}

export function attachmentView(r: FormAttachmentRow): AttachmentView {
  return { object: 'attachment', id: r.id, field: r.field_name, filename: r.filename, content_type: r.content_type, size: r.size, sha256: r.sha256, created_at: r.created_at };
}

/** The blob key of a form's attachment: under the form's own folder, which the purge empties. */
function attachmentKey(p: Partition, formId: string, id: string, ext: string): string {
  return `${formFilePrefixes(p, formId).attachments}${id}.${ext}`;
}

type Deps = Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'blobs' | 'pdfInspector'>;

function attachmentField(defs: readonly FieldDef[], signer: number, name: unknown): FieldDef {
  if (typeof name !== 'string' || name === '') throw new AppError('parameter_missing', 'Name the attachment field: ?field=<field name>.', 'field');
  const field = defs.find((f) => f.name === name);
  if (!field) throw new AppError('parameter_invalid', `This document has no field '${name}'.`, 'field');
  if (field.type !== 'attachment') throw new AppError('parameter_invalid', `${fieldWords(field)} is not an attachment field.`, 'field');
  if (field.signer !== signer) throw new AppError('parameter_invalid', `${fieldWords(field)} belongs to another signer; you can attach files only to your own fields.`, 'field');
  return field;
}

/** Checks and stores one file the signer attaches to `field`; answers what the page lists. */
export async function uploadAttachment(
  deps: Deps,
  link: SigningLink,
  input: { field: unknown; filename: string | undefined; bytes: Uint8Array; signal?: AbortSignal | undefined },
): Promise<AttachmentView> {
  refuseClosedLink(link);
  const { partition: p, form, recipient } = link;
  const fields = await formFields(deps, p, form);
  const field = attachmentField(fields.defs, recipient.signer, input.field);
  const { accept, maxFiles } = attachmentRules(field);
  const label = fieldWords(field);
  if (input.bytes.length === 0) throw new AppError('parameter_invalid', 'The file is empty.', 'file');
  if (input.bytes.length > MAX_ATTACHMENT_BYTES) throw new AppError('payload_too_large', `A file you attach is at most ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB.`, 'file');
  const type = sniffAttachmentType(input.bytes);
  if (!type || !accept.includes(type)) {
    throw new AppError('unsupported_media_type', `${label} takes ${accept.map(typeWord).join(', ')} files; this file is ${type ? typeWord(type) : 'none of those'}.`, 'file');
  }
  const before = (await listRecipientAttachments(deps.db, p, recipient.id)).filter((r) => r.field_name === field.name);
  if (before.length >= maxFiles) throw tooMany(label, maxFiles);
  if (type === 'application/pdf') {
    try {
      // The template upload's own inspection (a hostile PDF is refused there), owned by the account.
      await deps.pdfInspector.inspect(input.bytes, { owner: p.accountId, signal: input.signal });
    } catch (err) {
      throw fromPdfError(err, 'file');
    }
  } else {
    const problem = imageProblem(type, input.bytes);
    if (problem) throw new AppError('parameter_invalid', `This image ${problem}.`, 'file');
  }
  const now = isoNow(deps.clock);
  const id = newId('attachment');
  const row = {
    id, form_id: form.id, recipient_id: recipient.id, field_name: field.name, filename: cleanFilename(input.filename, type),
    content_type: type, size: input.bytes.length, sha256: sha256Hex(input.bytes), blob_key: attachmentKey(p, form.id, id, EXTENSIONS[type]), created_at: now,
  };
  // The file before its row: a crash in between leaves a file in the form's folder (the purge's), never a row naming nothing.
  await deps.blobs.put(row.blob_key, input.bytes, type);
  try {
    await deps.transact(async (trx) => {
      await lockOpenLink(trx, link, now);
      // Counted again under the form's lock: two uploads at once never pass max_files together.
      const count = (await listRecipientAttachments(trx, p, recipient.id)).filter((r) => r.field_name === field.name).length;
      if (count >= maxFiles) throw tooMany(label, maxFiles);
      await insertAttachment(trx, p, row);
    });
  } catch (err) {
    await deps.blobs.delete(row.blob_key).catch(() => undefined);
    throw err;
  }
  return attachmentView({ ...row, account_id: p.accountId, mode: p.mode, submitted_at: null });
}

function tooMany(label: string, maxFiles: number): AppError {
  return new AppError('parameter_invalid', `${label} takes at most ${maxFiles} file${maxFiles === 1 ? '' : 's'}; remove one before attaching another.`, 'file');
}

/** Removes a file the signer attached and has not signed with yet. */
export async function removeAttachment(deps: Deps, link: SigningLink, id: string): Promise<void> {
  refuseClosedLink(link);
  const { partition: p, recipient } = link;
  const now = isoNow(deps.clock);
  const key = await deps.transact(async (trx) => {
    await lockOpenLink(trx, link, now);
    const row = (await listRecipientAttachments(trx, p, recipient.id)).find((r) => r.id === id && r.submitted_at === null);
    if (!row) throw new AppError('resource_not_found', 'No such attachment on this link.');
    await deleteAttachment(trx, p, id);
    return row.blob_key;
  });
  await deps.blobs.delete(key);
}

/** The files this recipient attached and has not signed with yet, by field (the page lists them). */
export async function pendingAttachments(deps: Pick<DomainDeps, 'db'>, link: SigningLink): Promise<Map<string, AttachmentView[]>> {
  const out = new Map<string, AttachmentView[]>();
  if (link.state !== 'open') return out;
  for (const r of await listRecipientAttachments(deps.db, link.partition, link.recipient.id)) {
    if (r.submitted_at !== null) continue;
    out.set(r.field_name, [...(out.get(r.field_name) ?? []), attachmentView(r)]);
  }
  return out;
}

/** Each attachment field's value: the ids of the files in it, comma-separated (checkSubmission's `attached`). */
export function attachedValues(rows: readonly FormAttachmentRow[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rows) if (r.submitted_at === null) out[r.field_name] = out[r.field_name] ? `${out[r.field_name]},${r.id}` : r.id;
  return out;
}

/**
 * In the signature's unit: the files named by the signed values are the form's now; the recipient's
 * others (a field hidden by its condition, an upload that raced the signature) are deleted, and their
 * blob keys returned for deletion once the unit has committed.
 */
export async function bindAttachments(trx: Trx, p: Partition, recipientId: string, values: Readonly<Record<string, FieldValue>>, defs: readonly FieldDef[], at: string): Promise<string[]> {
  const kept = new Set(defs.filter((d) => d.type === 'attachment').flatMap((d) => (typeof values[d.name] === 'string' ? String(values[d.name]).split(',') : [])));
  const rows = (await listRecipientAttachments(trx, p, recipientId)).filter((r) => r.submitted_at === null);
  await markAttachmentsSubmitted(trx, p, rows.filter((r) => kept.has(r.id)).map((r) => r.id), at);
  const dropped = rows.filter((r) => !kept.has(r.id));
  for (const r of dropped) await deleteAttachment(trx, p, r.id);
  return dropped.map((r) => r.blob_key);
}
