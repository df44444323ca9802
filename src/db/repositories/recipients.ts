import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import { preparedInsert } from '../prepared-insert.js';
import type { RecipientRow } from '../tables.js';

const insertRow = preparedInsert('recipients', [
  'id', 'account_id', 'mode', 'form_id', 'position', 'signer', 'name', 'email', 'phone', 'channel', 'address_key', 'token_hash',
  'status', 'delivery_status', 'delivery_error', 'sent_at', 'viewed_at', 'signed_at', 'viewed_ip', 'viewed_user_agent',
  'signed_ip', 'signed_user_agent', 'created_at', 'updated_at',
  'locale',
  // 0013
  'declined_at', 'decline_reason', 'last_reminded_at',
  // 0055
  'meaning',
  // 0085
  'role', 'message', 'subject', 'approved_at',
]);

export function insertRecipient(trx: Trx, p: Partition, row: Omit<RecipientRow, 'account_id' | 'mode'>): Promise<void> {
  return insertRow(trx, { ...row, account_id: p.accountId, mode: p.mode });
}

/** A form's recipients in the order they were first sent it. */
export function listRecipientsOfForm(db: Db, p: Partition, formId: string): Promise<RecipientRow[]> {
  return db.selectFrom('recipients').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).orderBy('position').execute();
}

/** The recipients of several forms (a page of a list), each form's in order. */
export async function listRecipientsOfForms(db: Db, p: Partition, formIds: readonly string[]): Promise<RecipientRow[]> {
  if (formIds.length === 0) return [];
  return db
    .selectFrom('recipients')
    .selectAll()
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('form_id', 'in', formIds)
    .orderBy('form_id')
    .orderBy('position')
    .execute();
}

/**
 * A signing link is its own credential, as an API key is: the lookup is by the token's hash alone and
 * the partition comes from the row found.
 */
export async function findRecipientByTokenHash(db: Db, tokenHash: string): Promise<RecipientRow | undefined> {
  return db.selectFrom('recipients').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}
