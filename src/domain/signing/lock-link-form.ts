import { lockForm } from '../../db/repositories/forms.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import type { Trx } from '../../db/handles.js';
import type { FormRow, RecipientRow } from '../../db/tables.js';
import { AppError } from '../errors.js';
import type { SigningLink } from './resolve-link.js';

export const LINK_REPLACED = 'This signing link was replaced: the sender changed who signs, or it was passed to someone else. Ask the sender for the new link.';

/**
 * Every change a signing link makes (sign, approve, decline, pass on, draft, attached file) starts
 * here: the form's row locked (as every change of a form takes it), then the recipient read again.
 * The link was resolved to a recipient before the unit; a reassignment committed in between moved
 * the recipient to its next link generation, and the slot is the new person's now, so the old link
 * is refused 410 `link_replaced` (as its later requests are) instead of acting for the new person.
 */
export async function lockLinkForm(trx: Trx, link: SigningLink, now?: string): Promise<{ locked: FormRow; recipient: RecipientRow }> {
  const { partition: p, form, recipient } = link;
  const locked = await lockForm(trx, p, form.id, now);
  if (!locked) throw new AppError('resource_not_found', 'This signing link is not valid.');
  const r = (await listRecipientsOfForm(trx, p, form.id)).find((x) => x.id === recipient.id);
  if (!r) throw new AppError('resource_not_found', 'This signing link is not valid.');
  if (r.link_generation !== recipient.link_generation) throw new AppError('link_replaced', LINK_REPLACED);
  return { locked, recipient: r };
}
