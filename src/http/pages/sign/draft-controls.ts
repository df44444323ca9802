import { html, type SafeHtml } from '../html.js';
import { SIGN_ASSETS } from './sign-assets.js';
import type { Words } from './sign-words.js';

// Progress on the server (issue 43): the "Finish later" button of an open signing page and the line
// that says whether the values typed so far are saved; assets/draft.js saves them (PUT …/draft) as the
// signer types and, on the button, saves and has the link sent again. Its words are the page's
// (`sign.*` keys of the config).

/** The button and the status line; `url` is the draft's address. */
export function draftControls(w: Words, url: string): SafeHtml {
  return html`<div class="draft-row" id="draft-row" data-draft="${url}">
<button type="button" class="button secondary later-button" id="finish-later">${w.t('sign.finishLater')}</button>
<p class="muted draft-status" id="draft-status" role="status" aria-live="polite"></p>
</div>
<script type="module" src="${SIGN_ASSETS.draftScript.url}"></script>`;
}
