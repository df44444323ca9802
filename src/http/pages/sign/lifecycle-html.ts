import type { EndPageFacts } from '../../../domain/signing/end-page-facts.js';
import type { SigningPage } from '../../../domain/signing/signing-page.js';
import { formatUtc } from '../../../lib/i18n/index.js';
import { html, type SafeHtml } from '../html.js';
import { shell } from './sign-html.js';
import type { Words } from './sign-words.js';

// The signing page's parts for the life of a form after sending (issue #23): the page of a link whose
// turn has not come, of a declined form and of a voided one (the Decline button: decline-controls.ts).
// In the signer's language (sign-words.ts), like the rest of the signing pages. Each carries the embed
// head of an account with allowed origins (embed-head.ts), so a framing host hears the state too.

/** A moment in UTC in the signer's language; the page's script rewrites it in the browser's time zone. */
const when = (w: Words, iso: string): SafeHtml => html`<time datetime="${iso}" data-local="datetime">${formatUtc(w.locale, iso)}</time>`;

/** The sender's reply address, when the account has one (issue 43). */
function contact(w: Words, page: SigningPage, facts: EndPageFacts | undefined): SafeHtml | string {
  const email = facts?.contactEmail;
  return email ? html`<p class="contact">${w.h('expired.contact', { sender: html`<bdi>${page.senderName}</bdi>`, email: html`<a href="mailto:${email}" dir="ltr">${email}</a>` })}</p>` : '';
}

function notice(icon: 'waiting' | 'stopped', title: string, lead: SafeHtml, more: SafeHtml | string = ''): SafeHtml {
  const glyph = icon === 'waiting'
    ? html`<svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/></svg>`
    : html`<svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="12" r="9"/><path d="M8 12h8"/></svg>`;
  return html`<main class="sign-main narrow"><section class="notice card">
<p class="notice-icon expired" aria-hidden="true">${glyph}</p>
<h1>${title}</h1>
<p class="lead">${lead}</p>
${more}
</section></main>`;
}

/** Sequential order: this recipient's turn has not come (answered 409). */
export function waitingPage(w: Words, page: SigningPage, embed?: SafeHtml, facts?: EndPageFacts): SafeHtml {
  const now = facts?.signingNow;
  // Who signs now, by the template's role name and position (never a name or an address).
  const who = now
    ? html`<p class="turn">${now.role ? w.h('waiting.nowRole', { role: html`<bdi>${now.role}</bdi>`, position: now.position, total: now.total }) : w.t('waiting.nowPosition', { position: now.position, total: now.total })} ${w.t('waiting.yours', { position: now.yours })}</p>`
    : '';
  return shell(w, w.t('waiting.title', { form: page.formName }), notice('waiting', w.t('waiting.heading'), w.h('waiting.text', { form: page.formName }), who), { head: embed, brand: page.brand });
}

/** A recipient declined: the form is over for everyone (answered 410). */
export function declinedPage(w: Words, page: SigningPage, embed?: SafeHtml, facts?: EndPageFacts): SafeHtml {
  const lead = page.declined
    ? w.h('declined.textBy', { form: page.formName, name: page.declined.by, date: when(w, page.declined.at), sender: page.senderName })
    : w.h('declined.text', { form: page.formName, sender: page.senderName });
  return shell(w, w.t('declined.title', { form: page.formName }), notice('stopped', w.t('declined.heading'), lead, contact(w, page, facts)), { head: embed, brand: page.brand });
}

/** The sender voided the form (answered 410). */
export function voidedPage(w: Words, page: SigningPage, embed?: SafeHtml, facts?: EndPageFacts): SafeHtml {
  const lead = page.voidedAt
    ? w.h('voided.textOn', { form: page.formName, sender: page.senderName, date: when(w, page.voidedAt) })
    : w.h('voided.text', { form: page.formName, sender: page.senderName });
  // The sender's reason in their own words (and direction), then whom to ask.
  const reason = facts?.voidReason ? html`<p class="reason">${w.h('voided.reason', { reason: html`<bdi>${facts.voidReason}</bdi>` })}</p>` : '';
  return shell(w, w.t('voided.title', { form: page.formName }), notice('stopped', w.t('voided.heading'), lead, html`${reason}${contact(w, page, facts)}`), { head: embed, brand: page.brand });
}
