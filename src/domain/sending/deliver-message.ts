import { findMessage, recordMessageDelivered, recordMessageFailed } from '../../db/repositories/messages.js';
import { setRecipientDelivery } from '../../db/repositories/recipient-delivery.js';
import type { MessageRow } from '../../db/tables.js';
import type { Db } from '../../db/handles.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import type { JobHandler } from '../../outbox/job.js';
import type { PayloadOf } from '../../outbox/registry.js';
import type { EmailSender } from '../../providers/email/index.js';
import type { SmsSender } from '../../providers/sms/index.js';

export interface DeliveryDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly email: EmailSender;
  readonly sms: SmsSender;
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
 * - At least once: if the process dies after the SMTP DATA end (or the gateway's 2xx) but before that
 *   commit, the job is claimed again when its lease runs out and the message goes out a second time.
 *   The message id is the e-mail's Message-ID (`<msg_…@sender-domain>`), so receivers can drop the
 *   copy. A message already `delivered` is not sent again.
 */
export function messageDeliveryHandler(deps: DeliveryDeps): JobHandler<PayloadOf<'message.deliver'>> {
  return {
    async run(payload, ctx) {
      const p = ctx.partition;
      const message = await findMessage(deps.db, p, payload.message_id);
      if (!message) throw new Error(`Message ${payload.message_id} does not exist.`);
      if (message.status === 'delivered') return;
      const { transport, providerMessageId } = await send(deps, message, ctx.signal);
      const at = isoNow(deps.clock);
      return async (trx) => {
        await recordMessageDelivered(trx, p, message.id, { transport, providerMessageId, at });
        await setRecipientDelivery(trx, p, message.recipient_id, { status: 'delivered', error: null, at });
      };
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
      await setRecipientDelivery(trx, p, message.recipient_id, { status: 'failed', error: `${publicReason(failure.error)} (${when})`, at });
    },
  };
}

async function send(deps: DeliveryDeps, m: MessageRow, signal: AbortSignal): Promise<{ transport: string; providerMessageId: string | null }> {
  if (m.channel === 'email') {
    const sent = await deps.email.send({ id: m.id, to: m.to_address, subject: m.subject ?? '', text: m.text, html: m.html ?? '' }, signal);
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
