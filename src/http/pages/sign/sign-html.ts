import type { PageField, SigningPage } from '../../../domain/signing/signing-page.js';
import { OWN_SIGNATURE_KEY } from '../../../domain/signing/signing-rules.js';
import { html, type SafeHtml } from '../html.js';
import { LAYOUT_ASSETS } from '../layout.js';
import { SIGN_ASSETS, STANDARD_FONTS_URL } from './sign-assets.js';
import { SIGN_TEXT } from './sign-text.js';
import { declineControls } from './decline-controls.js';

// The signing page's HTML. The fields are real form controls with labels in the side panel (their
// order is the focus order); the script (assets/sign.js) draws the document's pages with pdf.js,
// places a marker over each field that moves focus to its control, and submits the values as JSON.

const LOGO = html`<svg viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#3b4fd8"/><path d="M10 7h9l5 5v13a1 1 0 0 1-1 1H10a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z" fill="#fff"/><path d="M19 7v5h5" fill="#c9cff8"/><path d="M12 21c1.5-2.5 2.5-2.5 3 0s1.6 2 3.2-.6" stroke="#3b4fd8" stroke-width="1.6" fill="none" stroke-linecap="round"/></svg>`;

export function shell(title: string, body: SafeHtml, opts: { head?: SafeHtml; subtitle?: string } = {}): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="icon" href="${LAYOUT_ASSETS.icon.url}" type="image/svg+xml">
<link rel="stylesheet" href="${LAYOUT_ASSETS.css.url}">
<link rel="stylesheet" href="${SIGN_ASSETS.style.url}">
${opts.head}
</head>
<body class="signing">
<header class="sign-header"><div class="sign-bar">
<span class="brand">${LOGO}<span>Formsign</span></span>
${opts.subtitle ? html`<span class="sign-subtitle">${opts.subtitle}</span>` : ''}
</div></header>
${body}
<footer class="sign-footer"><p>Signing is secured by Formsign. This link is personal: do not forward it.</p></footer>
</body>
</html>
`;
}

const when = (iso: string | null): string => (iso ? new Date(iso).toUTCString().replace(/:\d\d GMT$/, ' UTC') : '');

const TYPE_ATTR: Partial<Record<PageField['type'], string>> = { email: 'email', phone: 'tel', number: 'text', date: 'date' };

function control(f: PageField, id: string, signedOn: string): SafeHtml {
  const required = f.required ? html` required aria-required="true"` : '';
  const label = f.label ?? f.name;
  const star = f.required ? html`<span class="req" aria-hidden="true">*</span>` : '';
  const value = f.value === null || typeof f.value === 'boolean' ? '' : String(f.value);
  // Each control has a slot for its own error, in the field's words, which the input names as its description.
  const common = html`id="${id}" data-field="${f.name}" data-type="${f.type}" aria-describedby="${id}-error"`;
  const error = html`<p class="field-error" id="${id}-error" hidden></p>`;
  switch (f.type) {
    case 'checkbox':
      return html`<div class="ctl check"><input type="checkbox" ${common}${f.value === true ? html` checked` : ''}${required}><label for="${id}">${label}${star}</label>${error}</div>`;
    case 'radio':
      return html`<fieldset class="ctl" ${common}><legend>${label}${star}</legend>${(f.options ?? []).map((o, i) => html`<label class="choice"><input type="radio" name="${id}" value="${o}"${f.value === o ? html` checked` : ''}${i === 0 ? required : ''}> ${o}</label>`)}${error}</fieldset>`;
    case 'select':
      return html`<div class="ctl"><label for="${id}">${label}${star}</label><select ${common}${required}><option value="">Choose…</option>${(f.options ?? []).map((o) => html`<option${f.value === o ? html` selected` : ''}>${o}</option>`)}</select>${error}</div>`;
    case 'signature':
    case 'initials':
      return html`<div class="ctl sig" ${common}><span class="sig-label" id="${id}-label">${label}${star}</span>
<canvas class="sig-preview" id="${id}-preview" width="600" height="200" role="img" aria-label="${label}: not signed yet" hidden></canvas>
<button type="button" class="button secondary sig-button" data-sign="${id}" aria-describedby="${id}-label">${f.type === 'initials' ? 'Add initials' : 'Add signature'}</button>${error}</div>`;
    case 'date_signed':
      return html`<div class="ctl"><span class="sig-label">${label}</span><p class="auto-date">${signedOn} <span class="muted">— filled in when you finish</span></p></div>`;
    default:
      if (f.multiline) return html`<div class="ctl"><label for="${id}">${label}${star}</label><textarea ${common} rows="3"${f.max_length ? html` maxlength="${f.max_length}"` : ''}${required}>${value}</textarea>${error}</div>`;
      return html`<div class="ctl"><label for="${id}">${label}${star}</label><input type="${TYPE_ATTR[f.type] ?? 'text'}" ${common} value="${value}"${f.type === 'number' ? html` inputmode="decimal"` : ''}${f.max_length ? html` maxlength="${f.max_length}"` : ''}${f.type === 'email' ? html` autocomplete="email"` : ''}${required}>${error}</div>`;
  }
}

/** The page for an open link: the document, this signer's fields, consent and the finish button. */
export function openPage(page: SigningPage, urls: { document: string; submit: string; decline: string }, today: string): SafeHtml {
  const mine = page.fields.map((f, i) => ({ f, id: `field-${i}` })).filter(({ f }) => f.mine);
  const own: PageField = { name: OWN_SIGNATURE_KEY, type: 'signature', label: 'Your signature', required: true, page: 0, x: 0, y: 0, width: 0, height: 0, mine: true, value: null };
  const controls = [...mine.map(({ f, id }) => control(f, id, today)), ...(page.ownSignature ? [control(own, 'field-own', today)] : [])];
  const config = JSON.stringify({
    document: urls.document,
    submit: urls.submit,
    pdfjs: SIGN_ASSETS.pdfjs.url,
    pdfjsWorker: SIGN_ASSETS.pdfjsWorker.url,
    standardFonts: STANDARD_FONTS_URL,
    signaturePad: SIGN_ASSETS.signaturePad.url,
    scriptFont: SIGN_ASSETS.scriptFont.url,
    valueRules: SIGN_ASSETS.valueRules.url,
    text: SIGN_TEXT,
    fields: page.fields.map((f, i) => ({ ...f, id: `field-${i}` })),
  });
  const body = html`<main class="sign-main" id="signing" data-config="${config}">
<div class="sign-intro">
<h1>${page.formName}</h1>
<p class="lead">${page.senderName} asks ${page.recipientName ? html`<strong>${page.recipientName}</strong>` : 'you'} to review and sign this document.${page.expiresAt ? html` The link works until ${when(page.expiresAt)}.` : ''}</p>
</div>
<div class="sign-layout">
<section class="doc" aria-label="Document">
<div class="doc-status" id="doc-status" role="status">Loading the document…</div>
<div class="pages" id="pages"></div>
<p class="doc-fallback"><a href="${urls.document}" target="_blank" rel="noopener">Open the document as a PDF</a></p>
</section>
<aside class="panel" aria-labelledby="panel-title">
<form id="sign-form" novalidate>
<h2 id="panel-title">Your fields</h2>
<p class="progress muted" id="progress">${controls.length === 0 ? 'You have no fields to fill: read the document and sign below.' : 'Fields marked * are required.'}</p>
<div class="guide" id="guide">
<div class="guide-row"><p class="guide-progress" id="guide-progress" aria-live="polite"></p>
<button type="button" class="button secondary" id="next-field">${SIGN_TEXT.nextField}</button>
<button type="submit" class="button guide-finish" id="guide-finish">${SIGN_TEXT.finish}</button></div>
<div class="form-error" id="form-error" role="alert" tabindex="-1" hidden></div>
</div>
<div class="controls">${controls}</div>
<div class="consent ctl check"><input type="checkbox" id="consent" required aria-required="true"><label for="consent">I agree to sign this document electronically. My electronic signature has the same legal effect as a handwritten one (U.S. ESIGN Act and UETA), and I may ask the sender for a paper copy.</label></div>
<button type="submit" class="button finish" id="finish">Finish and sign</button>
</form>
${declineControls(urls.decline)}
</aside>
</div>
</main>
<dialog class="sig-dialog" id="sig-dialog" aria-labelledby="sig-title">
<form method="dialog" class="sig-dialog-form">
<h2 id="sig-title">Add your signature</h2>
<div class="tabs" role="tablist" aria-label="How to sign">
<button type="button" role="tab" id="tab-draw" aria-controls="pane-draw" aria-selected="true">Draw</button>
<button type="button" role="tab" id="tab-type" aria-controls="pane-type" aria-selected="false" tabindex="-1">Type</button>
</div>
<div class="pane" id="pane-draw" role="tabpanel" aria-labelledby="tab-draw">
<canvas class="pad" id="pad" tabindex="0" aria-label="Signature pad: draw with a mouse, finger or pen. To use the keyboard, choose Type." role="img"></canvas>
<div class="pad-actions"><span class="muted">Draw inside the box</span><button type="button" class="link-button" id="pad-clear">Clear</button></div>
</div>
<div class="pane" id="pane-type" role="tabpanel" aria-labelledby="tab-type" hidden>
<label for="typed">Type your name</label>
<input type="text" id="typed" autocomplete="name" maxlength="60">
<canvas class="typed-preview" id="typed-preview" width="1200" height="300" role="img" aria-label="Preview of your typed signature"></canvas>
</div>
<p class="form-error" id="sig-error" role="alert" hidden></p>
<div class="dialog-actions">
<button type="button" class="button secondary" id="sig-cancel">Cancel</button>
<button type="button" class="button" id="sig-apply">Apply</button>
</div>
</form>
</dialog>
<script type="module" src="${SIGN_ASSETS.script.url}"></script>`;
  return shell(`Sign: ${page.formName}`, body, { subtitle: page.formName });
}

/** The link's form expired: nothing can be signed any more. */
export function expiredPage(page: SigningPage): SafeHtml {
  const body = html`<main class="sign-main narrow"><section class="notice card">
<p class="notice-icon expired" aria-hidden="true"><svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="13" r="8"/><path d="M12 9v4l2.5 2.5M9 2h6"/></svg></p>
<h1>This signing link has expired</h1>
<p class="lead">“${page.formName}” could no longer be signed after ${when(page.expiresAt)}. Ask ${page.senderName} to send it to you again.</p>
</section></main>`;
  return shell(`Link expired: ${page.formName}`, body);
}

/** This recipient has signed: a read-only confirmation, with the signed copy once it is sealed. */
export function signedPage(page: SigningPage, urls: { signedPdf: string }): SafeHtml {
  const sealing = !page.sealed && page.waitingFor === 0;
  const status = page.sealed
    ? html`<p>Everyone has signed. Your copy is sealed with a digital signature that any PDF reader can verify.</p>
<div class="actions"><a class="button" href="${urls.signedPdf}" download>Download the signed PDF</a></div>`
    : page.waitingFor > 0
      ? html`<p>Waiting for ${page.waitingFor === 1 ? 'one other signer' : `${page.waitingFor} other signers`}. Come back to this link to download the signed copy once everyone has signed.</p>`
      : html`<p class="sealing" role="status"><span class="spinner" aria-hidden="true"></span> Your signed copy is being sealed. This page refreshes by itself.</p>`;
  const body = html`<main class="sign-main narrow"><section class="notice card">
<p class="notice-icon done" aria-hidden="true">✓</p>
<h1>You signed “${page.formName}”</h1>
<p class="lead">Signed ${when(page.signedAt)}. This link keeps showing this confirmation.</p>
${status}
</section></main>`;
  return shell(`Signed: ${page.formName}`, body, sealing ? { head: html`<script type="module" src="${SIGN_ASSETS.waitScript.url}"></script>` } : {});
}
