import type { Trx } from '../../db/handles.js';
import { findAccount } from '../../db/repositories/accounts.js';
import { insertMessage } from '../../db/repositories/messages.js';
import { findAccountNotify } from '../../db/repositories/notify-settings.js';
import type { AccountBrandingRow, AccountNotifyRow, AccountRow, FormRow, MessageKind, RecipientRow } from '../../db/tables.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import { messageDeliver } from '../../outbox/jobs/message-deliver.job.js';
import { composeSenderNotice, type CopyDelivery } from './compose-message.js';
import { displayName } from './display-name.js';

/** The sealed PDF as a message carries it: the blob to attach (when small enough) and its download link. */
export interface SealedCopy {
  /** The blob attached, read from the store when the message is sent; null: too large, the link alone. */
  readonly attachment: { readonly key: string; readonly name: string } | null;
  readonly delivery: CopyDelivery;
}

/** What the account's notify_email is told of. */
export type SenderNotice =
  | { readonly kind: 'completed'; readonly copy: SealedCopy; readonly signers: readonly RecipientRow[] }
  | { readonly kind: 'declined'; readonly recipient: RecipientRow; readonly reason: string | null }
  | { readonly kind: 'viewed'; readonly recipient: RecipientRow }
  /** Issue 38: a signer passed the form on; `recipient` is the new person, `previous` who passed it. */
  | { readonly kind: 'reassigned'; readonly recipient: RecipientRow; readonly previous: Pick<RecipientRow, 'name' | 'email' | 'phone' | 'channel'>; readonly reason: string | null };

/** The unit the notice is written in: whose form, and the time of the change it reports. */
export interface NoticeContext {
  readonly partition: Partition;
  /** RFC 3339: when the form was completed, declined or viewed. */
  readonly now: string;
  /** The account's rows when the caller has read them already (the seal job, beside its other reads); else read here. */
  readonly known?: AccountFacts | undefined;
}

/**
 * The account's rows a completed form's messages are composed from, read by the seal job before its
 * PDF work (beside its other reads) rather than one after another in the transaction that records the
 * seal, where each round trip holds the form's row lock (issue 36).
 */
export interface AccountFacts {
  readonly account: AccountRow | undefined;
  readonly branding: Omit<AccountBrandingRow, 'logo'> | undefined;
  readonly notify: AccountNotifyRow | undefined;
}

const KIND: Record<SenderNotice['kind'], MessageKind> = { completed: 'notice_completed', declined: 'notice_declined', viewed: 'notice_viewed', reassigned: 'notice_reassigned' };

/**
 * Tells the account's notify_email of a form's completion, a decline or (when the account opted in) a
 * first view: the message is composed and stored, and its delivery job enqueued, in the caller's
 * transaction — the one that records the change — so the notice is sent once the change commits and
 * is never lost nor doubled by a crash. Nothing is written when the account has no notify_email (or,
 * for a view, has not opted in). Returns the message id, if one was written.
 */
export async function enqueueSenderNotice(trx: Trx, ctx: NoticeContext, form: Pick<FormRow, 'id' | 'name'>, notice: SenderNotice): Promise<string | undefined> {
  const p = ctx.partition;
  const settings = ctx.known ? ctx.known.notify : await findAccountNotify(trx, p.accountId);
  if (!settings?.notify_email) return undefined;
  if (notice.kind === 'viewed' && settings.notify_viewed !== 1) return undefined;
  const account = ctx.known ? ctx.known.account : await findAccount(trx, p.accountId);
  const base = { to: settings.notify_email, accountName: account?.name ?? 'Formsign', formName: form.name ?? 'a document', formId: form.id };
  const composed = composeSenderNotice(
    notice.kind === 'completed'
      ? { ...base, kind: 'completed', copy: notice.copy.delivery, signers: notice.signers.map(displayName) }
      : notice.kind === 'declined'
        ? { ...base, kind: 'declined', recipient: displayName(notice.recipient), reason: notice.reason, at: ctx.now }
        : notice.kind === 'reassigned'
          ? { ...base, kind: 'reassigned', recipient: displayName(notice.recipient), previous: displayName(notice.previous), reason: notice.reason, at: ctx.now }
          : { ...base, kind: 'viewed', recipient: displayName(notice.recipient), at: ctx.now },
  );
  const messageId = newId('message');
  const attachment = notice.kind === 'completed' ? notice.copy.attachment : null;
  await insertMessage(trx, p, {
    id: messageId, kind: KIND[notice.kind], form_id: form.id, recipient_id: notice.kind === 'completed' ? null : notice.recipient.id,
    channel: 'email', to_address: settings.notify_email, subject: composed.subject ?? null, text: composed.text, html: composed.html ?? null,
    attachment_key: attachment?.key ?? null, attachment_name: attachment?.name ?? null, created_at: ctx.now,
  });
  await enqueue(trx, p, messageDeliver, { message_id: messageId }, { now: ctx.now });
  return messageId;
}
