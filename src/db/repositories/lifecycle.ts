import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { RecipientRow, ReminderRow } from '../tables.js';

// The writes of a form's life after sending (0013): a sequential recipient's turn, reminders, a
// decline. Recipient changes are conditional on the status they move from, as the signing page's are
// (recipient-signing.ts), so of two concurrent requests exactly one moves the row.

function recipients(trx: Trx, p: Partition, id: string) {
  return trx.updateTable('recipients').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id);
}

/** `waiting` → `sent`: the recipient's turn came and its message is written in the same unit. */
export function markRecipientMessaged(trx: Trx, p: Partition, id: string, at: string): Promise<RecipientRow | undefined> {
  return recipients(trx, p, id).set({ status: 'sent', sent_at: at, updated_at: at }).where('status', '=', 'waiting').returningAll().executeTakeFirst();
}

/** `sent`/`viewed` → `declined`, with the time and the reason. */
export function markRecipientDeclined(trx: Trx, p: Partition, id: string, d: { at: string; reason: string | null }): Promise<RecipientRow | undefined> {
  return recipients(trx, p, id)
    .set({ status: 'declined', declined_at: d.at, decline_reason: d.reason, updated_at: d.at })
    .where('status', 'in', ['sent', 'viewed'])
    .returningAll()
    .executeTakeFirst();
}

export async function setRecipientReminded(trx: Trx, p: Partition, id: string, at: string): Promise<void> {
  await recipients(trx, p, id).set({ last_reminded_at: at, updated_at: at }).execute();
}

export async function insertReminder(trx: Trx, p: Partition, row: Omit<ReminderRow, 'account_id' | 'mode'>): Promise<void> {
  await trx.insertInto('reminders').values({ ...row, account_id: p.accountId, mode: p.mode }).execute();
}

/** Whether scheduled reminder `seq` of the recipient was already sent (its promise kept). */
export async function hasScheduledReminder(db: Db, p: Partition, recipientId: string, seq: number): Promise<boolean> {
  const row = await db
    .selectFrom('reminders')
    .select('id')
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('recipient_id', '=', recipientId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row !== undefined;
}

/** A form's reminders, oldest first (the audit page lists them under each recipient). */
export function listRemindersOfForm(db: Db, p: Partition, formId: string): Promise<ReminderRow[]> {
  return db.selectFrom('reminders').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).orderBy('created_at').orderBy('id').execute();
}
