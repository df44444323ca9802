import { findBrandingLook } from '../../db/repositories/branding.js';
import { findAccount } from '../../db/repositories/accounts.js';
import { findMessage, recordMessageDelivered, recordMessageFailed } from '../../db/repositories/messages.js';
import { findAccountNotify } from '../../db/repositories/notify-settings.js';
import { setRecipientDelivery } from '../../db/repositories/recipient-delivery.js';
import type { MessageRow } from '../../db/tables.js';
import type { Db, Transact, Trx } from '../../db/handles.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { JobHandler } from '../../outbox/job.js';
import type { BlobStore } from '../../providers/blob/index.js';
import type { PayloadOf } from '../../outbox/registry.js';
import type { EmailSender } from '../../providers/email/index.js';
import type { SmsSender } from '../../providers/sms/index.js';
import { senderDisplayName } from './compose-message.js';

export interface DeliveryDeps {
  readonly db: Db;
  /** Records the provider's acceptance in a short commit of its own, right after it (see below). */
  readonly transact: Transact;
  readonly clock: Clock;
  readonly email: EmailSender;
  readonly sms: SmsSender;
  /** Where an attachment (the sealed PDF of a completed copy) is read from when the message is sent. */
  readonly blobs: Pick<BlobStore, 'get'>;
}

/**
 * The `message.deliver` job: sends one stored message through the configured provider and records
 * the outcome on the message and on its recipient.
 *
 * - Success: message `delivered` (transport, provider id), recipient `delivery_status: delivered`,
 *   written in the transaction that marks the job done — so a job marked done is never sent again.
 * - A failed attempt: message and recipient `failed` with the error and when the next attempt is due
 *   (`delivery_status` tells the truth about the last attempt, not a hope about the next); a later
 *   success turns them `delivered`. After the last attempt the error says it was given up on, and the
 *   job stays `dead` for `formsign outbox retry`.
 * - At least once: the acceptance (the SMTP server's 250 after DATA, or the gateway's 2xx) is recorded
 *   in a short commit of its own right after it, before the job's own commit, so a job whose completion
 *   fails to commit (a database fault) finds its message `delivered` when it runs again and sends
 *   nothing. Only if the process dies, or the database fails, in the moment between the acceptance and
 *   that commit is the message sent a second time; the message id is the e-mail's Message-ID
 *   (`<msg_…@sender-domain>`), so a duplicate carries the same one and receivers can drop it.
 * - Who it is from is read when it is sent, for every kind alike: `"<account name> via Formsign"`
 *   at MAIL_FROM's address, Reply-To the account's notify_email when set; an attachment is read from
 *   the blob store then too. Only an invitation's outcome shows on its recipient (`delivery_status`
 *   is about the signing link reaching them, not about the copies or notices that follow).
 */
export function messageDeliveryHandler(deps: DeliveryDeps): JobHandler<PayloadOf<'message.deliver'>> {
  return {
    async run(payload, ctx) {
      const p = ctx.partition;
      const message = await findMessage(deps.db, p, payload.message_id);
      // Its form was deleted (issue 40): the purge removed the message, so there is nothing to send.
      if (!message) return;
      if (message.status === 'delivered') return;
      const { transport, providerMessageId } = await send(deps, p, message, ctx.signal);
      const at = isoNow(deps.clock);
      const recipientId = tracksRecipient(message);
      const record = async (trx: Trx) => {
        await recordMessageDelivered(trx, p, message.id, { transport, providerMessageId, at });
        if (recipientId) await setRecipientDelivery(trx, p, recipientId, { status: 'delivered', error: null, at });
      };
      try {
        await deps.transact(record);
        return;
      } catch {
        // The database failed right now: the same record goes into the job's own commit instead, and
        // if that fails too the job runs again and the message goes out again (at least once).
        return record;
      }
    },
    async failed(trx, payload, ctx, failure) {
      const p = ctx.partition;
      const message = await findMessage(trx, p, payload.message_id);
      if (!message) return;
      const at = isoNow(deps.clock);
      const when = failure.dead ? `gave up after ${ctx.attempt} attempts` : `attempt ${ctx.attempt} of ${ctx.maxAttempts}; next attempt at ${failure.retryAt}`;
      // The operator's record keeps every detail; the recipient's `delivery_error`, which API clients
      // and webhooks see, keeps what concerns the message and not the service's network.
      await recordMessageFailed(trx, p, message.id, { error: `${failure.error} (${when})`, at });
      const recipientId = tracksRecipient(message);
      if (recipientId) await setRecipientDelivery(trx, p, recipientId, { status: 'failed', error: `${publicReason(failure.error)} (${when})`, at });
    },
  };
}

/** The recipient whose `delivery_status` this message's outcome sets: an invitation's, else none. */
function tracksRecipient(m: MessageRow): string | null {
  return m.kind === 'invite' ? m.recipient_id : null;
}

async function send(deps: DeliveryDeps, p: Partition, m: MessageRow, signal: AbortSignal): Promise<{ transport: string; providerMessageId: string | null }> {
  if (m.channel === 'email') {
    const [account, notify, brand] = await Promise.all([findAccount(deps.db, p.accountId), findAccountNotify(deps.db, p.accountId), findBrandingLook(deps.db, p.accountId)]);
    const attachments = [];
    if (m.attachment_key) {
      const content = await deps.blobs.get(m.attachment_key);
      // Written before the message that names it (the seal stores the file first): a miss is a broken store.
      if (!content) throw new Error(`The attachment ${m.attachment_key} of message ${m.id} is missing from the file store.`);
      attachments.push({ filename: m.attachment_name ?? 'document.pdf', contentType: 'application/pdf', content });
    }
    const sent = await deps.email.send({
      id: m.id, to: m.to_address, subject: m.subject ?? '', text: m.text, html: m.html ?? '',
      // Every e-mail of the account, whatever its kind, comes from its brand's sender name (issue 42).
      fromName: senderDisplayName(brand?.sender_name ?? account?.name ?? 'Formsign'),
      ...(notify?.notify_email ? { replyTo: notify.notify_email } : {}),
      attachments,
    }, signal);
    return { transport: deps.email.transport, providerMessageId: sent.providerMessageId };
  }
  const sent = await deps.sms.send({ to: m.to_address, body: m.text }, signal);
  return { transport: deps.sms.transport, providerMessageId: sent.providerMessageId };
}

/** Failures that are about reaching a server say so without naming the address or the socket error. */
const UNREACHABLE = /^(The mail server could not be reached|The SMS gateway could not be reached|Sending the e-mail failed)\b.*$/s;

export function publicReason(error: string): string {
  return error.replace(UNREACHABLE, '$1; it is retried.');
}
