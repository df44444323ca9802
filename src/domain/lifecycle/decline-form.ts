import { updateForm } from '../../db/repositories/forms.js';
import { markRecipientDeclined } from '../../db/repositories/lifecycle.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { deleteFormDrafts } from '../../db/repositories/signing-drafts.js';
import type { FormRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { formState } from '../forms/present-form.js';
import { enqueueSenderNotice } from '../sending/sender-notice.js';
import { recordFormEvent } from '../forms/record-event.js';
import type { SigningLink } from '../signing/resolve-link.js';
import { lockLinkForm } from '../signing/lock-link-form.js';
import { refuseClosedLink } from './closed-links.js';
import { ACTIVE, checkReason } from './lifecycle-rules.js';

/**
 * A recipient declines to sign from their signing page (`POST /sign/<token>/decline`). In ONE unit:
 * the recipient `declined` (time, optional reason), the form `declined` (final: every link answers
 * 410 with a page naming who declined and when), and `form.declined`, whose Form shows the recipient's
 * `declined_at` and `decline_reason`.
 */
export async function declineForm(deps: Pick<DomainDeps, 'transact' | 'clock'>, link: SigningLink, input: { reason?: unknown }): Promise<{ declinedAt: string }> {
  refuseClosedLink(link);
  // A cc and a viewer are asked nothing, so they have nothing to decline (issue 42).
  if (link.recipient.role === 'cc' || link.recipient.role === 'viewer') throw new AppError('parameter_invalid', `You are a ${link.recipient.role} of this document: nothing is asked of you, so there is nothing to decline.`);
  const reason = checkReason(input.reason, 'reason');
  const { partition: p, form, recipient } = link;
  const at = isoNow(deps.clock);
  return deps.transact(async (trx) => {
    const { locked } = await lockLinkForm(trx, link, at);
    if (locked.status === 'voided') throw new AppError('form_not_sendable', 'The sender withdrew this request: there is nothing to decline.');
    if (locked.status === 'declined') throw new AppError('form_not_sendable', 'This request was already declined.');
    if (!ACTIVE.has(locked.status) || (locked.expires_at !== null && locked.expires_at <= at)) {
      throw new AppError(locked.status === 'signed' ? 'form_not_sendable' : 'form_expired', locked.status === 'signed' ? 'This document has already been signed by everyone.' : 'This document expired; there is nothing to decline.');
    }
    const declined = await markRecipientDeclined(trx, p, recipient.id, { at, reason });
    if (!declined) throw new AppError(recipient.status === 'waiting' ? 'not_your_turn' : 'form_not_sendable', recipient.status === 'waiting' ? 'It is not your turn to sign yet.' : 'You can no longer decline this document.');
    const row: FormRow = { ...locked, status: 'declined', updated_at: at };
    await updateForm(trx, p, form.id, { status: 'declined', updated_at: at });
    await deleteFormDrafts(trx, p, form.id);
    // The sender's notice (with the reason) is written in this unit: it goes out once the decline commits.
    await enqueueSenderNotice(trx, { partition: p, now: at }, locked, { kind: 'declined', recipient: declined, reason });
    await recordFormEvent(trx, p, 'form.declined', formState(row, await listRecipientsOfForm(trx, p, form.id)), at);
    return { declinedAt: at };
  });
}
