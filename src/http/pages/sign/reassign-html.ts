import { html, type SafeHtml } from '../html.js';
import { reassignWords } from './reassign-words.js';
import { SIGN_ASSETS } from './sign-assets.js';
import { shell } from './sign-html.js';
import type { Words } from './sign-words.js';

// "Not me? Assign to someone else" (issue 38 item 5): the page a signer of a form sent with
// `allow_reassign` opens from their signing page (`/sign/<token>/reassign`, behind the signer gate).
// A plain form of three fields; its script (assets/reassign.ts) posts it as JSON to the same address
// and, once the server has replaced the link, shows what happened in place (this link is dead then).

export function reassignPage(w: Words, o: { formName: string | null; post: string; back: string }): SafeHtml {
  const r = reassignWords(w.locale);
  const config = JSON.stringify({ post: o.post, text: r });
  const body = html`<main class="sign-main narrow"><section class="notice card reassign" id="reassign" data-config="${config}">
<h1 id="reassign-title">${r.title}</h1>
<p class="lead" id="reassign-lead">${r.lead}</p>
<form id="reassign-form" class="reassign-form" novalidate aria-labelledby="reassign-title">
<p class="form-error" id="reassign-error" role="alert" hidden></p>
<label for="reassign-name">${r.nameLabel}</label>
<input id="reassign-name" name="name" type="text" autocomplete="off" maxlength="200">
<label for="reassign-email">${r.emailLabel} <span class="required-mark">${r.required}</span></label>
<input id="reassign-email" name="email" type="email" dir="ltr" autocomplete="off" maxlength="254" required aria-describedby="reassign-error">
<label for="reassign-reason">${r.reasonLabel} <span class="required-mark">${r.required}</span></label>
<textarea id="reassign-reason" name="reason" rows="3" maxlength="500" required></textarea>
<p class="hint muted">${r.hint}</p>
<div class="actions">
<button type="submit" class="button" id="reassign-submit">${r.submit}</button>
<a class="button secondary" href="${o.back}">${r.back}</a>
</div>
</form>
<div id="reassign-done" hidden>
<p class="notice-icon done" aria-hidden="true">✓</p>
<p class="lead" id="reassign-done-text" role="status"></p>
</div>
</section></main>
<script type="module" src="${SIGN_ASSETS.reassignScript.url}"></script>`;
  return shell(w, r.title, body, { subtitle: o.formName ?? '' });
}

/** The sender did not allow passing the form on (`allow_reassign` was not set at the send). */
export function reassignRefusedPage(w: Words, o: { formName: string | null; back: string }): SafeHtml {
  const r = reassignWords(w.locale);
  const body = html`<main class="sign-main narrow"><section class="notice card">
<h1>${r.title}</h1>
<p class="lead">${r.notAllowed}</p>
<div class="actions"><a class="button secondary" href="${o.back}">${r.back}</a></div>
</section></main>`;
  return shell(w, r.title, body, { subtitle: o.formName ?? '' });
}

/** A link replaced by a new one (the sender changed the recipient, or it was passed on): 410. */
export function replacedLinkPage(w: Words, requestId: string): SafeHtml {
  const r = reassignWords(w.locale);
  const body = html`<main class="sign-main narrow"><section class="notice card">
<p class="status">410</p>
<h1>${r.replacedHeading}</h1>
<p class="lead">${r.replacedText}</p>
<p class="muted">${r.replacedHint}</p>
<p class="request-id muted"><code>${requestId}</code></p>
</section></main>`;
  return shell(w, r.replacedHeading, body);
}
