import type { Partition } from '../../lib/partition.js';
import type { FormRow, RecipientRow } from '../tables.js';
import type { Trx } from '../handles.js';

// The writes of the signing page. Each recipient change is conditional on the status it moves from,
// so of two concurrent requests exactly one finds the row still in that status (PostgreSQL re-checks
// the condition after waiting on the other's row lock; SQLite runs one writer at a time).

export interface ClientSeen {
  at: string;
  ip: string | null;
  userAgent: string | null;
}

/** A recipient moved from one status to the next, with what that step records; undefined when it was not in `from`. */
function moveRecipient(trx: Trx, p: Partition, id: string, from: RecipientRow['status'], set: Partial<RecipientRow>): Promise<RecipientRow | undefined> {
  return trx
    .updateTable('recipients')
    .set(set)
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
}

/** `sent` → `viewed`; undefined when the recipient had already been viewed (or signed). */
export function markRecipientViewed(trx: Trx, p: Partition, id: string, seen: ClientSeen): Promise<RecipientRow | undefined> {
  return moveRecipient(trx, p, id, 'sent', { status: 'viewed', viewed_at: seen.at, viewed_ip: seen.ip, viewed_user_agent: seen.userAgent, updated_at: seen.at });
}

/** `viewed` → `signed`; undefined when the recipient has already signed. */
export function markRecipientSigned(trx: Trx, p: Partition, id: string, seen: ClientSeen): Promise<RecipientRow | undefined> {
  return moveRecipient(trx, p, id, 'viewed', { status: 'signed', signed_at: seen.at, signed_ip: seen.ip, signed_user_agent: seen.userAgent, updated_at: seen.at });
}

/** An approver approves (issue 42): `viewed` → `approved`; undefined when they already had (or declined). */
export function markRecipientApproved(trx: Trx, p: Partition, id: string, seen: ClientSeen): Promise<RecipientRow | undefined> {
  return moveRecipient(trx, p, id, 'viewed', { status: 'approved', approved_at: seen.at, signed_ip: seen.ip, signed_user_agent: seen.userAgent, updated_at: seen.at });
}

/** The form's first view: `sent` → `viewed` (a form already viewed, or in another state, is left as it is). */
export function markFormViewed(trx: Trx, p: Partition, id: string, at: string): Promise<FormRow | undefined> {
  return trx
    .updateTable('forms')
    .set({ status: 'viewed', updated_at: at })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', id)
    .where('status', '=', 'sent')
    .returningAll()
    .executeTakeFirst();
}

/** Replaces the form's values (the JSON object text) with the signer's merged in. */
export async function setFormValues(trx: Trx, p: Partition, id: string, valuesJson: string, at: string): Promise<void> {
  await trx.updateTable('forms').set({ values: valuesJson, updated_at: at }).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).execute();
}
