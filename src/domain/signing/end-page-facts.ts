import { findAccountNotify } from '../../db/repositories/notify-settings.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import { findTemplate } from '../../db/repositories/templates.js';
import type { DomainDeps } from '../context.js';
import type { SigningLink } from './resolve-link.js';

// What the end pages of a signing link add (issue 43 item 9): the sender's reply address (the
// account's notify_email, which is also the Reply-To of its messages) on the voided and declined
// pages, the sender's reason on the voided page, and on the waiting page who signs now — by the
// template's role name for their slot and their position, never by name or address.

export interface EndPageFacts {
  /** Where a signer can write to the sender; null when the account has none. */
  contactEmail: string | null;
  /** The sender's reason for voiding, when given. */
  voidReason: string | null;
  /** Sequential order: the recipient whose turn it is, and this recipient's own position. */
  signingNow: { position: number; total: number; role: string | null; yours: number } | null;
}

export async function endPageFacts(deps: Pick<DomainDeps, 'db'>, link: SigningLink): Promise<EndPageFacts> {
  const { partition: p, form } = link;
  const notify = link.state === 'voided' || link.state === 'declined' ? await findAccountNotify(deps.db, p.accountId) : undefined;
  return {
    contactEmail: notify?.notify_email ?? null,
    voidReason: link.state === 'voided' ? form.void_reason : null,
    signingNow: link.state === 'waiting' ? await signingNow(deps, link) : null,
  };
}

async function signingNow(deps: Pick<DomainDeps, 'db'>, link: SigningLink): Promise<EndPageFacts['signingNow']> {
  const { partition: p, form, recipient } = link;
  const recipients = await listRecipientsOfForm(deps.db, p, form.id);
  // The turn is the first recipient in slot order who was messaged and has not signed.
  const now = [...recipients].sort((a, b) => a.signer - b.signer).find((r) => r.status === 'sent' || r.status === 'viewed');
  if (!now) return null;
  const template = form.template_id ? await findTemplate(deps.db, p, form.template_id) : undefined;
  const roles = template ? (JSON.parse(template.signers) as Array<{ slot: number; role: string }>) : [];
  const role = roles.find((r) => r.slot === now.signer)?.role ?? null;
  const total = Math.max(recipients.length, ...recipients.map((r) => r.signer));
  return { position: now.signer, total, role, yours: recipient.signer };
}
