import { findForm } from '../../db/repositories/forms.js';
import { findRecipientByTokenHash } from '../../db/repositories/recipients.js';
import type { FormRow, RecipientRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { SigningPageState } from '../../lib/signing-page-states.js';
import type { DomainDeps } from '../context.js';

export type SigningLink =
  /** The recipient may view and sign. */
  | { state: 'open'; partition: Partition; form: FormRow; recipient: RecipientRow }
  /** The form expired (or is past `expires_at` before the sweep recorded it): the link no longer works. */
  | { state: 'expired'; partition: Partition; form: FormRow; recipient: RecipientRow }
  /** This recipient has signed: the link shows a read-only confirmation. */
  | { state: 'signed'; partition: Partition; form: FormRow; recipient: RecipientRow }
  /** Sequential order: this recipient's turn has not come (409 `not_your_turn`). */
  | { state: 'waiting'; partition: Partition; form: FormRow; recipient: RecipientRow }
  /** A recipient declined to sign: the form is over, every link answers 410 saying who and when. */
  | { state: 'declined'; partition: Partition; form: FormRow; recipient: RecipientRow }
  /** The sender voided the form: every link answers 410 "This request was withdrawn". */
  | { state: 'voided'; partition: Partition; form: FormRow; recipient: RecipientRow };

// Both ways: a link resolves to exactly the page states lib/signing-page-states.ts lists.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const _LINK_STATES_ARE_PAGE_STATES: Same<SigningLink['state'], SigningPageState> = true;

// 32 bytes of HMAC as base64url (signing-links.ts).
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Whether `token` has the shape of a signing link's token (anything else is looked up nowhere). */
export function isLinkToken(token: string): boolean {
  return TOKEN.test(token);
}

/**
 * What a signing link (`/sign/<token>`) opens, or undefined for a token that is not one. The token is
 * the credential: it is looked up by its hash, and the partition comes from the recipient it names.
 */
export async function resolveSigningLink(deps: Pick<DomainDeps, 'db' | 'links' | 'clock'>, token: string): Promise<SigningLink | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const recipient = await findRecipientByTokenHash(deps.db, deps.links.tokenHash(token));
  if (!recipient) return undefined;
  const partition: Partition = { accountId: recipient.account_id, mode: recipient.mode };
  const form = await findForm(deps.db, partition, recipient.form_id);
  if (!form) return undefined;
  const link = { partition, form, recipient };
  // A form that is over is over for every link, a signed recipient's included.
  if (form.status === 'voided') return { state: 'voided', ...link };
  if (form.status === 'declined') return { state: 'declined', ...link };
  if (recipient.status === 'signed' || recipient.status === 'approved') return { state: 'signed', ...link };
  const expired = form.status === 'expired' || (form.expires_at !== null && form.expires_at <= isoNow(deps.clock));
  if (expired) return { state: 'expired', ...link };
  return { state: recipient.status === 'waiting' ? 'waiting' : 'open', ...link };
}
