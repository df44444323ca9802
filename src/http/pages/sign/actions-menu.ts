import { html, type SafeHtml } from '../html.js';
import { SIGN_ASSETS } from './sign-assets.js';
import type { Words } from './sign-words.js';

// The open signing page's actions menu at the top (issue 43 item 6): Decline, Finish later, Download
// the document, Assign to someone else (only when the form allows it) and Help (the sender's name and
// reply address). A native disclosure (<details>), so it opens without the script; the script
// (assets/actions-menu.ts) closes it and runs Decline and Finish later through their own controls
// (decline-controls.ts, draft-controls.ts), which stay the one place each is done.

export interface ActionsMenuInput {
  document: string;
  /** `/sign/<token>/reassign`, given only when the form allows reassignment. */
  reassign: string | null;
  sender: string;
  contactEmail: string | null;
  /** The page has fields to keep (Finish later). */
  canFinishLater: boolean;
}

export function actionsMenu(w: Words, a: ActionsMenuInput): SafeHtml {
  const help = html`<bdi>${a.sender}</bdi>`;
  return html`<details class="actions-menu" id="actions-menu">
<summary class="button secondary">${w.t('sign.actions')}</summary>
<div class="actions-list">
<button type="button" class="link-button" data-action="decline">${w.t('decline.open')}</button>
${a.canFinishLater ? html`<button type="button" class="link-button" data-action="later">${w.t('sign.finishLater')}</button>` : ''}
<a class="link-button" href="${a.document}" download>${w.t('sign.download')}</a>
${a.reassign ? html`<a class="link-button" href="${a.reassign}" id="reassign-link">${w.t('sign.reassign')}</a>` : ''}
<div class="actions-help"><p class="actions-help-title">${w.t('sign.help')}</p>
<p>${w.h('sign.helpFrom', { sender: help })}${a.contactEmail ? html` ${w.h('sign.helpWrite', { email: html`<a href="mailto:${a.contactEmail}" dir="ltr">${a.contactEmail}</a>` })}` : ''}</p></div>
</div>
</details>
<script type="module" src="${SIGN_ASSETS.actionsMenu.url}"></script>`;
}
