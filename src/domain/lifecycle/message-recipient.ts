import { insertMessage } from '../../db/repositories/messages.js';
import type { Trx } from '../../db/handles.js';
import type { FormRow, MessageKind, RecipientRow } from '../../db/tables.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import { formRemind } from '../../outbox/jobs/form-remind.job.js';
import { messageDeliver } from '../../outbox/jobs/message-deliver.job.js';
import type { ComposedMessage } from '../sending/compose-message.js';
import type { BrandLook } from '../branding/brand-look.js';
import { reminderTimes } from './lifecycle-rules.js';

/** Who and what a message is about: enough to compose any of the recipient's messages. */
export interface MessageContext {
  form: Pick<FormRow, 'id' | 'name' | 'expires_at' | 'reminder_every_days' | 'reminder_max'>;
  accountName: string;
  /** The account's default language (i18n): the recipient's own locale comes first. */
  accountLocale: string | null;
  /** The account's brand (issue 42): its name, logo and accent in the message. */
  brand?: BrandLook;
}

export function addressOf(r: Pick<RecipientRow, 'channel' | 'email' | 'phone'>): string {
  return r.channel === 'email' ? r.email! : r.phone!;
}

/**
 * Writes a composed message to a recipient and its delivery job in the caller's unit (the message is
 * stored as sent, so the dev outbox and the audit show exactly it). Returns the message id.
 */
export async function queueMessage(trx: Trx, p: Partition, formId: string, r: Pick<RecipientRow, 'id' | 'channel' | 'email' | 'phone'>, kind: MessageKind, message: ComposedMessage, now: string): Promise<string> {
  const messageId = newId('message');
  await insertMessage(trx, p, {
    id: messageId, kind, form_id: formId, recipient_id: r.id, channel: r.channel, to_address: addressOf(r),
    subject: message.subject ?? null, text: message.text, html: message.html ?? null, created_at: now, updated_at: now,
  });
  await enqueue(trx, p, messageDeliver, { message_id: messageId }, { now });
  return messageId;
}

/**
 * The promises made when a recipient is messaged: one `form.remind` job per reminder of the form's
 * schedule, each due `every_days` after the previous. Written in the unit that messages the recipient,
 * which happens once per recipient (its status moves from `waiting`, or it is inserted), so no promise
 * is enqueued twice.
 */
export async function scheduleReminders(trx: Trx, p: Partition, form: MessageContext['form'], recipientId: string, messagedAt: string): Promise<void> {
  if (!form.reminder_every_days || !form.reminder_max) return;
  for (const { seq, at } of reminderTimes(messagedAt, { every_days: form.reminder_every_days, max: form.reminder_max })) {
    await enqueue(trx, p, formRemind, { form_id: form.id, recipient_id: recipientId, seq }, { now: messagedAt, runAt: at });
  }
}

