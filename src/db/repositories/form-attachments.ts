import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { FormAttachmentRow } from '../tables.js';

// Files signers attach (migration 0100, issue 41). Every query names the partition.

const scoped = (db: Db | Trx, p: Partition) => db.selectFrom('form_attachments').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode);

export async function insertAttachment(trx: Trx, p: Partition, row: Omit<FormAttachmentRow, 'account_id' | 'mode' | 'submitted_at'>): Promise<void> {
  await trx.insertInto('form_attachments').values({ ...row, account_id: p.accountId, mode: p.mode, submitted_at: null }).execute();
}

/** One attachment of a form, by id (undefined across accounts, modes and forms alike). */
export async function findFormAttachment(db: Db | Trx, p: Partition, formId: string, id: string): Promise<FormAttachmentRow | undefined> {
  return scoped(db, p).where('form_id', '=', formId).where('id', '=', id).executeTakeFirst();
}

/** A recipient's files, oldest first (the order they are listed, sealed and shown). */
export async function listRecipientAttachments(db: Db | Trx, p: Partition, recipientId: string): Promise<FormAttachmentRow[]> {
  return scoped(db, p).where('recipient_id', '=', recipientId).orderBy('created_at').orderBy('id').execute();
}

/** Every file of a form, oldest first. */
export async function listFormAttachments(db: Db | Trx, p: Partition, formId: string): Promise<FormAttachmentRow[]> {
  return scoped(db, p).where('form_id', '=', formId).orderBy('created_at').orderBy('id').execute();
}

export async function deleteAttachment(trx: Trx, p: Partition, id: string): Promise<void> {
  await trx.deleteFrom('form_attachments').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).execute();
}

/** The signer signed: the files they kept are the form's now. */
export async function markAttachmentsSubmitted(trx: Trx, p: Partition, ids: readonly string[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('form_attachments').set({ submitted_at: at }).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', 'in', ids).execute();
}
