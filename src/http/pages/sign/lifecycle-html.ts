import type { SigningPage } from '../../../domain/signing/signing-page.js';
import { html, type SafeHtml } from '../html.js';
import { shell } from './sign-html.js';

// The signing page's parts for the life of a form after sending (issue #23): the page of a link whose
// turn has not come, of a declined form and of a voided one (the Decline button: decline-controls.ts).

const when = (iso: string | null): string => (iso ? new Date(iso).toUTCString().replace(/:\d\d GMT$/, ' UTC') : '');

function notice(icon: 'waiting' | 'stopped', title: string, lead: SafeHtml): SafeHtml {
  const glyph = icon === 'waiting'
    ? html`<svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/></svg>`
    : html`<svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="12" r="9"/><path d="M8 12h8"/></svg>`;
  return html`<main class="sign-main narrow"><section class="notice card">
<p class="notice-icon expired" aria-hidden="true">${glyph}</p>
<h1>${title}</h1>
<p class="lead">${lead}</p>
</section></main>`;
}

/** Sequential order: this recipient's turn has not come (answered 409). */
export function waitingPage(page: SigningPage): SafeHtml {
  return shell(`Not your turn yet: ${page.formName}`, notice('waiting', 'It is not your turn to sign yet', html`“${page.formName}” is signed in order, and the people before you have not all signed. You will get a message when it is your turn.`));
}

/** A recipient declined: the form is over for everyone (answered 410). */
export function declinedPage(page: SigningPage): SafeHtml {
  const who = page.declined ? html`${page.declined.by} declined to sign it on ${when(page.declined.at)}` : html`it was declined`;
  return shell(`Declined: ${page.formName}`, notice('stopped', 'This request was declined', html`“${page.formName}” can no longer be signed: ${who}. ${page.senderName} has been told.`));
}

/** The sender voided the form (answered 410). */
export function voidedPage(page: SigningPage): SafeHtml {
  return shell(`Withdrawn: ${page.formName}`, notice('stopped', 'This request was withdrawn', html`${page.senderName} withdrew “${page.formName}”${page.voidedAt ? html` on ${when(page.voidedAt)}` : ''}. There is nothing to sign any more.`));
}
