import type { BrandLook } from '../../../domain/branding/brand-look.js';
import { roleWords } from '../../../lib/i18n/role-words.js';
import { fill } from '../../../lib/i18n/index.js';
import { accentStylesheet } from '../brand-assets.js';
import { html, type SafeHtml } from '../html.js';
import type { Words } from './sign-words.js';

// The account's brand on its signing pages (issue 42), and the sender's message: the pieces
// sign-html.ts's shell and pages put in place. The accent is a stylesheet (the pages allow no inline
// style); the logo an image from this origin (the pages load no other).

/** What the page's head adds for the brand: the accent's stylesheet, after the page's own. */
export function brandHead(brand: BrandLook | undefined): SafeHtml | string {
  return brand?.accent ? html`<link rel="stylesheet" href="${accentStylesheet(brand.accent)}">` : '';
}

/** The header's mark: the account's logo and name when it has a brand, else undefined (Formsign's own). */
export function brandMark(brand: BrandLook | undefined): SafeHtml | undefined {
  if (!brand?.logoUrl && !brand?.accent) return undefined;
  // The logo's address is absolute (e-mails need it); the page loads it from its own origin by path.
  const logo = brand.logoUrl ? html`<img class="brand-logo" src="${new URL(brand.logoUrl).pathname}" alt="" height="28">` : '';
  return html`<span class="brand branded">${logo}<span>${brand.name}</span></span>`;
}

/** The sender's message, quoted as written (escaped; line breaks kept by the stylesheet), with who wrote it. */
export function senderMessage(w: Words, sender: string, message: string | null): SafeHtml | string {
  if (!message) return '';
  return html`<figure class="sender-message"><figcaption>${fill(roleWords(w.locale).messageFrom, { account: sender })}</figcaption><blockquote dir="auto">${message}</blockquote></figure>`;
}
