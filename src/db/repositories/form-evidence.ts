import { sql } from 'kysely';
import type { Partition } from '../../lib/partition.js';
import type { Db } from '../handles.js';
import type { EventRow, MessageRow } from '../tables.js';

// What the evidence bundle (issue 40) reads of one form beyond what the audit trail reads: every
// event in the order the events API gives them, and every message sent for it.

/** Every event of the form, oldest first (commit order, `seq`; an event not yet numbered last). */
export function allEventsOfForm(db: Db, p: Partition, formId: string): Promise<EventRow[]> {
  return db.selectFrom('events').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId)
    .orderBy(sql`case when seq is null then 1 else 0 end`).orderBy('seq').orderBy('created_at').orderBy('id').execute();
}

/** Every message sent for the form (invitations, reminders, codes, copies, notices), oldest first. */
export function messagesOfForm(db: Db, p: Partition, formId: string): Promise<MessageRow[]> {
  return db.selectFrom('messages').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).orderBy('created_at').orderBy('id').execute();
}
