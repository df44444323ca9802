import type { LoginLinkPurpose } from '../../db/tables.js';
import { clip, oneLine, renderEmail } from '../sending/message-layout.js';

// What a sign-in or reset e-mail says (issue 37 item 4), in the layout every e-mail shares. Pure.

export interface AccessEmailInput {
  readonly purpose: LoginLinkPurpose;
  readonly to: string;
  readonly accountName: string;
  readonly url: string;
  readonly minutes: number;
  /** The server's public address, named so the reader knows which dashboard asked. */
  readonly baseUrl: string;
}

export function composeAccessEmail(m: AccessEmailInput): { subject: string; text: string; html: string } {
  const reset = m.purpose === 'reset';
  const account = clip(oneLine(m.accountName), 100);
  const heading = reset ? 'Set a new password' : 'Sign in to your dashboard';
  const { text, html } = renderEmail({
    account,
    heading,
    greeting: null,
    paragraphs: [
      reset
        ? `Someone, probably you, asked to set a new password for ${m.to} on the Formsign dashboard at ${m.baseUrl}. Follow the link to choose one; every other session of yours is then signed out.`
        : `Someone, probably you, asked for a sign-in link for ${m.to} on the Formsign dashboard at ${m.baseUrl}. Follow the link to sign in.`,
    ],
    action: { label: reset ? 'Choose a new password' : 'Sign in', textLabel: reset ? 'Choose a new password' : 'Sign in', url: m.url },
    notes: [`The link works once, for ${m.minutes} minutes. If you did not ask for it, ignore this e-mail: nothing changes until the link is used.`],
    footer: `You received this e-mail because ${m.to} is a user of ${account} on Formsign.`,
  });
  return { subject: reset ? 'Set a new password for your Formsign dashboard' : 'Your Formsign sign-in link', text, html };
}
