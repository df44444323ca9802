import { lockForm } from '../../db/repositories/forms.js';
import { markFormViewed, markRecipientViewed, type ClientSeen } from '../../db/repositories/recipient-signing.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import type { Trx } from '../../db/handles.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { recordFormEvent } from '../forms/record-event.js';
import { formState } from '../forms/present-form.js';
import { enqueueSenderNotice } from '../sending/sender-notice.js';
import { ACTIVE } from '../lifecycle/lifecycle-rules.js';
import { advanceTurn } from '../lifecycle/advance-turn.js';
import type { SigningLink } from './resolve-link.js';

/** Who opened a page: the address and browser the audit trail keeps. */
export interface Client {
  ip: string | null;
  userAgent: string | null;
}

/**
 * A recipient's first open of their signing page: the recipient becomes `viewed` (time, IP, user
 * agent), the form `viewed` if it was `sent`, and one `form.viewed` event is recorded, all in one
 * transaction, with the viewed notice to the account when it opted in. Later opens write nothing.
 * Returns whether this call was the first view.
 */
export async function viewForm(deps: Pick<DomainDeps, 'transact' | 'clock' | 'links' | 'baseUrl'>, link: SigningLink, client: Client): Promise<boolean> {
  // The common case, a page opened again, costs no write.
  if (link.state !== 'open' || link.recipient.status !== 'sent') return false;
  const at = isoNow(deps.clock);
  return deps.transact((trx) => markViewed(trx, deps, link.partition, link.form.id, link.recipient.id, { at, ...client }));
}

/**
 * The view as part of a unit (also a signature that arrives without a view before it). The form's row
 * is locked first, as sends and signatures lock it, so concurrent changes of one form queue in one
 * order; the recipient's conditional update then lets exactly one of concurrent first opens through.
 */
export async function markViewed(trx: Trx, deps: Pick<DomainDeps, 'links' | 'baseUrl'>, p: Partition, formId: string, recipientId: string, seen: ClientSeen): Promise<boolean> {
  const form = await lockForm(trx, p, formId, seen.at);
  // Only a form still out with its recipients records views (not signed, expired, declined or voided).
  if (!form || !ACTIVE.has(form.status)) return false;
  const recipient = await markRecipientViewed(trx, p, recipientId, seen);
  if (!recipient) return false;
  const viewed = (await markFormViewed(trx, p, formId, seen.at)) ?? form;
  // A viewer's part is this view (issue 42): in a sequential form the next recipient's turn comes with it.
  if (recipient.role === 'viewer') await advanceTurn(trx, deps, p, form, seen.at);
  await recordFormEvent(trx, p, 'form.viewed', formState(viewed, await listRecipientsOfForm(trx, p, formId)), seen.at);
  // The account's notify_email hears of each recipient's first view if it opted in.
  await enqueueSenderNotice(trx, { partition: p, now: seen.at }, form, { kind: 'viewed', recipient });
  return true;
}
