import { MAX_REASON_CHARS } from '../../../domain/lifecycle/lifecycle-rules.js';
import { html, type SafeHtml } from '../html.js';
import { SIGN_ASSETS } from './sign-assets.js';

// The "Decline to sign" button of an open signing page and its dialog (issue #23); assets/decline.js
// submits it as the page submits a signature.

const MAX_REASON = MAX_REASON_CHARS;

/** The "Decline to sign" button and its dialog, for the open page; `url` is where the dialog posts. */
export function declineControls(url: string): SafeHtml {
  return html`<div class="decline-row"><button type="button" class="link-button decline-open" id="decline-open" data-decline="${url}" aria-haspopup="dialog">Decline to sign</button></div>
<dialog class="sig-dialog decline-dialog" id="decline-dialog" aria-labelledby="decline-title" aria-describedby="decline-help">
<form method="dialog" id="decline-form">
<h2 id="decline-title">Decline to sign</h2>
<p id="decline-help">If you decline, nobody can sign this document any more and the sender is told. This cannot be undone.</p>
<label for="decline-reason">Reason (optional)</label>
<textarea id="decline-reason" rows="4" maxlength="${MAX_REASON}" aria-describedby="decline-count"></textarea>
<p class="muted decline-count" id="decline-count">Up to ${MAX_REASON} characters.</p>
<p class="form-error" id="decline-error" role="alert" hidden></p>
<div class="dialog-actions">
<button type="button" class="button secondary" id="decline-cancel">Cancel</button>
<button type="button" class="button danger" id="decline-confirm">Decline</button>
</div>
</form>
</dialog>
<script type="module" src="${SIGN_ASSETS.declineScript.url}"></script>`;
}
