import { insertMessage } from '../../db/repositories/messages.js';
import type { Trx } from '../../db/handles.js';
import { newId } from '../../lib/ids.js';
import type { MessageKind } from '../../lib/message-kinds.js';
import { enqueue } from '../../outbox/enqueue.js';
import { messageDeliver } from '../../outbox/jobs/message-deliver.job.js';
import type { DomainDeps } from '../context.js';

/**
 * Queues an e-mail to a dashboard user or invitee (a sign-in link, a reset link, an invitation) in the
 * caller's transaction, to go out through the outbox like every other message. It concerns a person,
 * not a form; it is filed under the account's test partition, the one the dashboard opens in, so the
 * dev outbox shows it there.
 */
export async function queueUserEmail(trx: Trx, deps: Pick<DomainDeps, 'clock'>, m: { accountId: string; kind: MessageKind; to: string; subject: string; text: string; html: string }): Promise<void> {
  const now = deps.clock.now().toISOString();
  const messageId = newId('message');
  const p = { accountId: m.accountId, mode: 'test' as const };
  await insertMessage(trx, p, { id: messageId, kind: m.kind, form_id: null, recipient_id: null, channel: 'email', to_address: m.to, subject: m.subject, text: m.text, html: m.html, created_at: now });
  await enqueue(trx, p, messageDeliver, { message_id: messageId }, { now });
}
