import type { GatePass } from '../../../domain/signing/gate/signer-gate.js';
import { maskEmail, maskPhone } from '../../../domain/signing/gate/check-rules.js';
import { html, type SafeHtml } from '../html.js';
import { checkWords } from './check-words.js';
import { SIGN_ASSETS } from './sign-assets.js';
import { shell } from './sign-html.js';
import type { Words } from './sign-words.js';

// The code screen: what a link that asks for a check shows until this browser passes it. The code
// is typed here and posted in a JSON body (assets/check.js); it never appears in an address.

/** Minutes left of a lock, or 0. */
function lockedMinutes(pass: GatePass, nowMs: number): number {
  const until = pass.check?.locked_until;
  if (!until) return 0;
  const left = Date.parse(until) - nowMs;
  return left > 0 ? Math.ceil(left / 60_000) : 0;
}

function destination(pass: GatePass): string {
  const c = pass.check!;
  if (c.method === 'sms_code') return maskPhone(c.phone ?? pass.link.recipient.phone ?? '');
  return maskEmail(pass.link.recipient.email ?? '');
}

export function checkPage(w: Words, pass: GatePass, urls: { start: string; verify: string }, nowMs: number): SafeHtml {
  const c = checkWords(w.locale);
  const check = pass.check!;
  const access = check.method === 'access_code';
  const to = access ? '' : destination(pass);
  // The address is left to right inside any language's sentence (an Arabic one included).
  const [before, after] = (access ? c.leadAccess : check.method === 'sms_code' ? c.leadSms : c.leadEmail).split('{to}');
  const lead = access ? html`${before}` : html`${before}<bdi dir="ltr">${to}</bdi>${after ?? ''}`;
  const minutes = lockedMinutes(pass, nowMs);
  const config = JSON.stringify({ start: urls.start, verify: urls.verify, method: check.method, to, text: c });
  const body = html`<main class="sign-main narrow"><section class="notice card check" id="check" data-config="${config}">
<h1 id="check-title">${c.title}</h1>
<p class="lead" id="check-lead">${lead}</p>
<p class="form-error" id="check-locked" role="alert"${minutes > 0 ? '' : html` hidden`}>${c.locked.replace('{minutes}', String(minutes))}</p>
${access ? '' : html`<p class="check-send"><button type="button" class="button secondary" id="check-send">${c.send}</button></p>`}
<form id="check-form" class="check-form" novalidate>
<label for="check-code">${access ? c.accessLabel : c.codeLabel}</label>
<input id="check-code" name="code" type="text" dir="ltr" autocomplete="one-time-code" ${access ? html`maxlength="32"` : html`inputmode="numeric" maxlength="8" pattern="[0-9 ]*"`} required aria-describedby="check-status">
<p class="check-status" id="check-status" role="status" aria-live="polite"></p>
<button type="submit" class="button" id="check-confirm">${c.confirm}</button>
</form>
</section></main>
<script type="module" src="${SIGN_ASSETS.checkScript.url}"></script>`;
  return shell(w, c.title, body, { subtitle: pass.link.form.name ?? '' });
}

/** Reloads the page once (a same-site navigation, which carries the SameSite=Strict session cookie). */
export function reloadPage(): SafeHtml {
  return html`<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0"><title>Formsign</title></head><body></body></html>`;
}
