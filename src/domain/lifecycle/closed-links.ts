import { AppError } from '../errors.js';
import type { SigningLink } from '../signing/resolve-link.js';

/**
 * The JSON refusal of a signing link that cannot act (sign, decline, fetch the document): one place,
 * so every path of the signing page refuses a closed link alike and cleanly (never a 500). The HTML
 * page of each state is the signing page's (sign-html.ts, lifecycle-html.ts).
 */
export function refuseClosedLink(link: SigningLink): void {
  switch (link.state) {
    case 'open':
      return;
    case 'waiting':
      throw new AppError('not_your_turn', 'It is not your turn to sign yet: you will get a message when it is your turn.');
    case 'signed':
      throw new AppError('form_not_sendable', 'You have already signed this document.');
    case 'expired':
      throw new AppError('form_expired', 'This signing link has expired: the document can no longer be signed. Ask the sender to send it again.');
    case 'declined':
      throw new AppError('form_not_sendable', 'This request was declined, so it can no longer be signed.');
    case 'voided':
      throw new AppError('form_not_sendable', 'This request was withdrawn by the sender, so it can no longer be signed.');
  }
}
