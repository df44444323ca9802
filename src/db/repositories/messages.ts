import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import { preparedInsert } from '../prepared-insert.js';
import { limitLiteral } from './pagination.js';
import type { MessageKind, MessageRow, MessagesTable } from '../tables.js';

// Each e-mail or SMS as composed at send time, and what became of it. Without an SMTP server or SMS
// gateway this table is the dev outbox: its rows are the messages, delivered with transport 'dev'.

/**
 * A message as composed: queued, nothing sent yet (the fields of its outcome, if named, must say so).
 * Without a kind it is an invitation; without an attachment it carries none.
 */
export type NewMessage = Omit<MessagesTable, 'account_id' | 'mode' | 'transport' | 'status' | 'provider_message_id' | 'error' | 'updated_at' | 'delivered_at' | 'kind' | 'attachment_key' | 'attachment_name'> & {
  kind?: MessageKind;
  attachment_key?: string | null;
  attachment_name?: string | null;
  transport?: null;
  status?: 'queued';
  provider_message_id?: null;
  error?: null;
  updated_at?: string;
  delivered_at?: null;
};

const insertMessageRow = preparedInsert('messages', [
  'id', 'account_id', 'mode', 'form_id', 'recipient_id', 'channel', 'to_address', 'subject', 'text', 'html',
  'transport', 'status', 'provider_message_id', 'error', 'created_at', 'updated_at', 'delivered_at',
  'kind', 'attachment_key', 'attachment_name',
]);

/** A message as composed, queued for delivery (its job is enqueued in the same transaction). */
export function insertMessage(trx: Trx, p: Partition, row: NewMessage): Promise<void> {
  return insertMessageRow(trx, {
    ...row,
    account_id: p.accountId,
    mode: p.mode,
    transport: null,
    status: 'queued',
    provider_message_id: null,
    error: null,
    updated_at: row.created_at,
    delivered_at: null,
    kind: row.kind ?? 'invite',
    attachment_key: row.attachment_key ?? null,
    attachment_name: row.attachment_name ?? null,
  });
}

export async function findMessage(db: Db, p: Partition, id: string): Promise<MessageRow | undefined> {
  return db.selectFrom('messages').selectAll().where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', id).executeTakeFirst();
}

/** The message went out: recorded with its job's outcome. */
export async function recordMessageDelivered(trx: Trx, p: Partition, id: string, d: { transport: string; providerMessageId: string | null; at: string }): Promise<void> {
  await trx
    .updateTable('messages')
    .set({ status: 'delivered', transport: d.transport, provider_message_id: d.providerMessageId, error: null, delivered_at: d.at, updated_at: d.at })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', id)
    .execute();
}

export async function recordMessageFailed(trx: Trx, p: Partition, id: string, f: { error: string; at: string }): Promise<void> {
  await trx
    .updateTable('messages')
    .set({ status: 'failed', error: f.error, updated_at: f.at })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', id)
    .where('status', '!=', 'delivered')
    .execute();
}

/**
 * Newest first. With a partition, that partition's messages (the dashboard's view); without, every
 * partition's: the operator's view of the dev outbox from the command line.
 */
export async function listMessages(db: Db, q: { partition?: Partition | undefined; limit: number }): Promise<MessageRow[]> {
  let query = db.selectFrom('messages').selectAll();
  if (q.partition) query = query.where('account_id', '=', q.partition.accountId).where('mode', '=', q.partition.mode);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
}

/**
 * Retention (all partitions: the sweep is the operator's): empties the bodies (text, html) of up to
 * `limit` messages delivered before `before` — the bodies hold the recipient's signing link, which
 * nothing needs once the message is out (the link is derived again whenever a form is shown). The row
 * stays: to whom, when, how and with what outcome. Returns how many were emptied.
 */
export async function purgeMessageBodiesBefore(trx: Trx, before: string, limit: number): Promise<number> {
  const old = trx
    .selectFrom('messages')
    .select('id')
    .where('status', '=', 'delivered')
    .where('delivered_at', '<', before)
    .where('text', '<>', '')
    .orderBy('delivered_at')
    .limit(limitLiteral(limit));
  const r = await trx.updateTable('messages').set({ text: '', html: null }).where('id', 'in', old).executeTakeFirst();
  return Number(r.numUpdatedRows);
}
