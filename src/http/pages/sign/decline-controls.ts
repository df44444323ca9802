import { MAX_REASON_CHARS } from '../../../domain/lifecycle/lifecycle-rules.js';
import { html, type SafeHtml } from '../html.js';
import { SIGN_ASSETS } from './sign-assets.js';
import type { Words } from './sign-words.js';

// The "Decline to sign" button of an open signing page and its dialog (issue #23); assets/decline.js
// submits it as the page submits a signature. The script's own words (errors, "Declining…") come from
// the page's config (`decline.*` keys, scriptText).

const MAX_REASON = MAX_REASON_CHARS;

/** The "Decline to sign" button and its dialog, for the open page; `url` is where the dialog posts. */
export function declineControls(w: Words, url: string): SafeHtml {
  return html`<div class="decline-row"><button type="button" class="link-button decline-open" id="decline-open" data-decline="${url}" data-max="${MAX_REASON}" aria-haspopup="dialog">${w.t('decline.open')}</button></div>
<dialog class="sig-dialog decline-dialog" id="decline-dialog" aria-labelledby="decline-title" aria-describedby="decline-help">
<form method="dialog" id="decline-form">
<h2 id="decline-title">${w.t('decline.open')}</h2>
<p id="decline-help">${w.t('decline.help')}</p>
<label for="decline-reason">${w.t('decline.reason')}</label>
<textarea id="decline-reason" rows="4" maxlength="${MAX_REASON}" dir="auto" aria-describedby="decline-count"></textarea>
<p class="muted decline-count" id="decline-count">${w.t('decline.limit', { max: MAX_REASON })}</p>
<p class="form-error" id="decline-error" role="alert" hidden></p>
<div class="dialog-actions">
<button type="button" class="button secondary" id="decline-cancel">${w.t('dialog.cancel')}</button>
<button type="button" class="button danger" id="decline-confirm">${w.t('decline.confirm')}</button>
</div>
</form>
</dialog>
<script type="module" src="${SIGN_ASSETS.declineScript.url}"></script>`;
}
