import { markRecipientApproved } from '../../db/repositories/recipient-signing.js';
import { isoNow } from '../../lib/clock.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { sealWhenComplete } from '../signing/sign-form.js';
import type { SigningLink } from '../signing/resolve-link.js';
import { lockLinkForm } from '../signing/lock-link-form.js';
import { markViewed, type Client } from '../signing/view-form.js';
import { advanceTurn } from './advance-turn.js';
import { refuseClosedLink } from './closed-links.js';
import { ACTIVE } from './lifecycle-rules.js';

/**
 * An approver approves (issue 42, `POST /sign/<token>/approve`). In ONE unit: the view (if the page
 * was not opened first), the recipient `approved` (time, IP, user agent), the next turn of a
 * sequential form, and — when every signer and approver is now done — the seal job, as the last
 * signature would. Declining is the signer's decline (decline-form.ts), reason and all.
 */
export async function approveForm(deps: Pick<DomainDeps, 'transact' | 'clock' | 'links' | 'baseUrl'>, link: SigningLink, client: Client): Promise<{ complete: boolean }> {
  refuseClosedLink(link);
  const { partition: p, form, recipient } = link;
  if (recipient.role !== 'approver') throw new AppError('parameter_invalid', `You are the ${recipient.role} of this document, not its approver: there is nothing for you to approve.`);
  const at = isoNow(deps.clock);
  const seen = { at, ...client };
  return deps.transact(async (trx) => {
    const { locked } = await lockLinkForm(trx, link, at);
    if (locked.status === 'declined' || locked.status === 'voided') refuseClosedLink({ ...link, state: locked.status });
    if (!ACTIVE.has(locked.status) || (locked.expires_at !== null && locked.expires_at <= at)) {
      throw new AppError(locked.status === 'signed' ? 'form_not_sendable' : 'form_expired', locked.status === 'signed' ? 'This document is already complete.' : 'This document expired before it was approved. Ask the sender to send it again.');
    }
    await markViewed(trx, deps, p, form.id, recipient.id, seen);
    const approved = await markRecipientApproved(trx, p, recipient.id, seen);
    if (!approved) throw new AppError('form_not_sendable', 'You have already approved this document.');
    const recipients = await advanceTurn(trx, deps, p, locked, at);
    return { complete: await sealWhenComplete(trx, p, form.id, recipients, at) };
  });
}
