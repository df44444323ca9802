import type { Trx } from '../../db/handles.js';
import type { FormRow, RecipientRow } from '../../db/tables.js';
import { refuseClosedLink } from '../lifecycle/closed-links.js';
import { ACTIVE } from '../lifecycle/lifecycle-rules.js';
import type { SigningLink } from './resolve-link.js';
import { lockLinkForm } from './lock-link-form.js';

/**
 * In a unit that changes what a recipient has given before signing (a draft, an attached file): the
 * form's row locked first, as a signature, decline or void takes it, so a change racing one of those
 * is either before it (and ends with it) or after it (and refused here with the closed link's error).
 * Answers the locked form and the recipient as they are now.
 */
export async function lockOpenLink(trx: Trx, link: SigningLink, now: string): Promise<{ locked: FormRow; recipient: RecipientRow }> {
  const { locked, recipient: r } = await lockLinkForm(trx, link);
  if (locked.status === 'voided' || locked.status === 'declined') refuseClosedLink({ ...link, state: locked.status });
  if (r.status === 'signed') refuseClosedLink({ ...link, state: 'signed' });
  if (!ACTIVE.has(locked.status) || (locked.expires_at !== null && locked.expires_at <= now)) refuseClosedLink({ ...link, state: locked.status === 'signed' ? 'signed' : 'expired' });
  return { locked, recipient: r };
}
