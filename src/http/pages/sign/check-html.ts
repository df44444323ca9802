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

/** The code form, its status and its buttons; `prefix` keeps the ids of the screen and of the Finish dialog apart. */
function checkForm(w: Words, pass: GatePass, urls: { start: string; verify: string }, o: { prefix: string; finish: boolean; lockedMinutes: number }): { config: string; lead: SafeHtml; form: SafeHtml; c: ReturnType<typeof checkWords> } {
  const c = checkWords(w.locale);
  const check = pass.check!;
  const access = check.method === 'access_code';
  const to = access ? '' : destination(pass);
  // The address is left to right inside any language's sentence (an Arabic one included).
  const sentence = o.finish ? (access ? c.leadFinishAccess : check.method === 'sms_code' ? c.leadFinishSms : c.leadFinishEmail) : access ? c.leadAccess : check.method === 'sms_code' ? c.leadSms : c.leadEmail;
  const [before, after] = sentence.split('{to}');
  const own = access ? html`${before}` : html`${before}<bdi dir="ltr">${to}</bdi>${after ?? ''}`;
  const lead = o.finish ? html`${c.leadFinish} ${own}` : own;
  const config = JSON.stringify({ prefix: o.prefix, finish: o.finish, start: urls.start, verify: urls.verify, method: check.method, to, text: c });
  const p = o.prefix;
  const form = html`<p class="form-error" id="${p}-locked" role="alert"${o.lockedMinutes > 0 ? '' : html` hidden`}>${c.locked.replace('{minutes}', String(o.lockedMinutes))}</p>
${access ? '' : html`<p class="check-send"><button type="button" class="button secondary" id="${p}-send">${c.send}</button></p>`}
<form id="${p}-form" class="check-form" novalidate>
<label for="${p}-code">${access ? c.accessLabel : c.codeLabel}</label>
<input id="${p}-code" name="code" type="text" dir="ltr" autocomplete="one-time-code" ${access ? html`maxlength="32"` : html`inputmode="numeric" maxlength="8" pattern="[0-9 ]*"`} required aria-describedby="${p}-status">
<p class="check-status" id="${p}-status" role="status" aria-live="polite"></p>
<button type="submit" class="button" id="${p}-confirm">${c.confirm}</button>
${o.finish ? html`<button type="button" class="button secondary" id="${p}-cancel">${c.cancel}</button>` : ''}
</form>`;
  return { config, lead, form, c };
}

export function checkPage(w: Words, pass: GatePass, urls: { start: string; verify: string }, nowMs: number): SafeHtml {
  const { config, lead, form, c } = checkForm(w, pass, urls, { prefix: 'check', finish: false, lockedMinutes: lockedMinutes(pass, nowMs) });
  const body = html`<main class="sign-main narrow"><section class="notice card check" id="check" data-check data-config="${config}">
<h1 id="check-title">${c.title}</h1>
<p class="lead" id="check-lead">${lead}</p>
${form}
</section></main>
<script type="module" src="${SIGN_ASSETS.checkScript.url}"></script>`;
  return shell(w, c.title, body, { subtitle: pass.link.form.name ?? '' });
}

/**
 * `when: sign`: the signing page's dialog that asks for the check again when the signer presses Finish
 * (the server refuses the signature with 401 auth_required, param `finish`, until it is passed; check.js
 * opens this dialog then and submits the signature again once the code is right).
 */
export function finishCheckDialog(w: Words, pass: GatePass, urls: { start: string; verify: string }): SafeHtml {
  const { config, lead, form, c } = checkForm(w, pass, urls, { prefix: 'finish-check', finish: true, lockedMinutes: 0 });
  return html`<dialog class="sig-dialog check" id="finish-check" data-check data-config="${config}" aria-labelledby="finish-check-title" aria-describedby="finish-check-lead">
<h2 id="finish-check-title">${c.title}</h2>
<p id="finish-check-lead">${lead}</p>
${form}
</dialog>
<script type="module" src="${SIGN_ASSETS.checkScript.url}"></script>`;
}

/** Reloads the page once (a same-site navigation, which carries the SameSite=Strict session cookie). */
export function reloadPage(): SafeHtml {
  return html`<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0"><title>Formsign</title></head><body></body></html>`;
}
