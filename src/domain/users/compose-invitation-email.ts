import { ROLE_SUMMARY, type Role } from '../../lib/member-roles.js';
import { clip, oneLine, renderEmail } from '../sending/message-layout.js';

// What an invitation to join an account's dashboard says (issue 39), in the layout every e-mail shares. Pure.

export interface InvitationEmailInput {
  readonly to: string;
  readonly accountName: string;
  /** The inviting member's address; null when an operator invited. */
  readonly invitedBy: string | null;
  readonly role: Role;
  readonly url: string;
  readonly days: number;
  readonly baseUrl: string;
}

export function composeInvitationEmail(m: InvitationEmailInput): { subject: string; text: string; html: string } {
  const account = clip(oneLine(m.accountName), 100);
  const who = m.invitedBy ? clip(oneLine(m.invitedBy), 254) : 'The operator';
  const { text, html } = renderEmail({
    account,
    heading: `Join ${account} on Formsign`,
    greeting: null,
    paragraphs: [`${who} invited ${m.to} to the Formsign dashboard of ${account} at ${m.baseUrl}, as ${m.role === 'owner' || m.role === 'admin' ? 'an' : 'a'} ${m.role} (${ROLE_SUMMARY[m.role]}). Follow the link and choose a password to join.`],
    action: { label: 'Accept the invitation', textLabel: 'Accept the invitation', url: m.url },
    notes: [`The link works once, for ${m.days} days. If you did not expect it, ignore this e-mail: nothing happens until the link is used.`],
    footer: `You received this e-mail because a member of ${account} invited ${m.to}.`,
  });
  return { subject: `You are invited to ${account} on Formsign`, text, html };
}
