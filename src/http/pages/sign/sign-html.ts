import type { PageField, SigningPage } from '../../../domain/signing/signing-page.js';
import { OWN_SIGNATURE_KEY } from '../../../domain/signing/signing-rules.js';
import { applyFieldLogic } from '../../../domain/forms/field-logic.js';
import { formatUtc, LANGUAGE_NAMES, LOCALES } from '../../../lib/i18n/index.js';
import { html, type SafeHtml } from '../html.js';
import { LAYOUT_ASSETS } from '../layout.js';
import { checkWords } from './check-words.js';
import { reassignWords } from './reassign-words.js';
import { signatureDialog, UPLOAD_LIMITS } from './adopt-html.js';
import { adoptWords } from './adopt-words.js';
import { MAX_SIGNATURE_BYTES } from '../../../domain/signing/signature-image.js';
import { SIGN_ASSETS, SIGN_FONTS, STANDARD_FONTS_URL } from './sign-assets.js';
import { LANG_PARAM, scriptText, type Words } from './sign-words.js';
import { declineControls } from './decline-controls.js';
import { draftControls } from './draft-controls.js';
import { actionsMenu } from './actions-menu.js';
import type { SignPageConfig } from './page-config.js';
import type { PageSize } from '../../../pdf/index.js';
import type { BrandLook } from '../../../domain/branding/brand-look.js';
import { brandHead, brandMark, senderMessage } from './brand-html.js';
import { attachmentControl } from './attachment-controls.js';

// The signing page's HTML, in the signer's language (sign-words.ts). The fields are real form
// controls with labels in the side panel (their order is the focus order); the script
// (assets/sign.js) draws the document's pages with pdf.js as they scroll into view, places a marker
// over each field that moves focus to its control, and submits the values as JSON. In a
// right-to-left language the panel and the dialog mirror; the document does not (it is drawn as it is).

const LOGO = html`<svg viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#3b4fd8"/><path d="M10 7h9l5 5v13a1 1 0 0 1-1 1H10a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z" fill="#fff"/><path d="M19 7v5h5" fill="#c9cff8"/><path d="M12 21c1.5-2.5 2.5-2.5 3 0s1.6 2 3.2-.6" stroke="#3b4fd8" stroke-width="1.6" fill="none" stroke-linecap="round"/></svg>`;

/** The language menu: a plain GET form (it works without the script, which submits it on change). */
function languageMenu(w: Words): SafeHtml {
  return html`<form class="lang-menu" method="get" id="lang-menu">
<label for="lang-select">${w.t('page.language')}</label>
<select id="lang-select" name="${LANG_PARAM}">${LOCALES.map((l) => html`<option value="${l}" lang="${l}"${l === w.locale ? html` selected` : ''}>${LANGUAGE_NAMES[l]}</option>`)}</select>
<button type="submit" class="button secondary lang-apply">${w.t('page.languageApply')}</button>
</form>`;
}

/** `first`: asked for before the stylesheets (the first page's picture: the largest thing the signer waits for). */
export function shell(w: Words, title: string, body: SafeHtml, opts: { head?: SafeHtml | undefined; first?: SafeHtml | undefined; subtitle?: string; brand?: BrandLook | undefined } = {}): SafeHtml {
  return html`<!doctype html>
<html lang="${w.locale}" dir="${w.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${opts.first}
<title>${title}</title>
<link rel="icon" href="${LAYOUT_ASSETS.icon.url}" type="image/svg+xml">
<link rel="stylesheet" href="${LAYOUT_ASSETS.css.url}">
<link rel="stylesheet" href="${SIGN_ASSETS.style.url}">
${brandHead(opts.brand)}
<script type="module" src="${SIGN_ASSETS.localTime.url}"></script>
${opts.head}
</head>
<body class="signing">
<header class="sign-header"><div class="sign-bar">
${brandMark(opts.brand) ?? html`<span class="brand">${LOGO}<span>Formsign</span></span>`}
${opts.subtitle ? html`<span class="sign-subtitle">${opts.subtitle}</span>` : ''}
${languageMenu(w)}
</div></header>
${body}
<footer class="sign-footer"><p>${w.t('page.footer')}</p></footer>
</body>
</html>
`;
}

/**
 * A moment, written in UTC in the signer's language; the page's script rewrites it in the browser's
 * own time zone (assets/sign-local-time.js), which the server does not know.
 */
function when(w: Words, iso: string | null): SafeHtml | string {
  return iso ? html`<time datetime="${iso}" data-local="datetime">${formatUtc(w.locale, iso)}</time>` : '';
}

const TYPE_ATTR: Partial<Record<PageField['type'], string>> = { email: 'email', phone: 'tel', number: 'text', date: 'date' };

function control(w: Words, f: PageField, id: string, signedOn: string): SafeHtml {
  // A formula's field is computed (issue 41): shown, read-only, never asked of the signer.
  const required = f.required && !f.formula ? html` required aria-required="true"` : '';
  // A label is the document's own words, in its own direction inside the page's (issue 43: an English
  // label's trailing ", 2024," must not move to the other end on an Arabic page).
  const label = f.label ?? f.name;
  const words = html`<bdi>${label}</bdi>`;
  const star = f.required && !f.formula ? html`<span class="req" aria-hidden="true">*</span>` : '';
  const value = f.value === null || typeof f.value === 'boolean' ? '' : String(f.value);
  // Each control has a slot for its own error, in the field's words, which the input names as its description.
  const common = html`id="${id}" data-field="${f.name}" data-type="${f.type}" aria-describedby="${id}-error"`;
  const error = html`<p class="field-error" id="${id}-error" hidden></p>`;
  switch (f.type) {
    case 'checkbox':
      return html`<div class="ctl check"><input type="checkbox" ${common}${f.value === true ? html` checked` : ''}${required}><label for="${id}">${words}${star}</label>${error}</div>`;
    case 'radio':
      return html`<fieldset class="ctl" ${common}><legend>${words}${star}</legend>${(f.options ?? []).map((o, i) => html`<label class="choice"><input type="radio" name="${id}" value="${o}"${f.value === o ? html` checked` : ''}${i === 0 ? required : ''}> <bdi>${o}</bdi></label>`)}${error}</fieldset>`;
    case 'select':
      return html`<div class="ctl"><label for="${id}">${words}${star}</label><select ${common}${required}><option value="">${w.t('sign.choose')}</option>${(f.options ?? []).map((o) => html`<option dir="auto"${f.value === o ? html` selected` : ''}>${o}</option>`)}</select>${error}</div>`;
    case 'signature':
    case 'initials':
      return html`<div class="ctl sig" ${common}><span class="sig-label" id="${id}-label">${words}${star}</span>
<canvas class="sig-preview" id="${id}-preview" width="600" height="200" role="img" aria-label="${w.t('sign.notSignedYet', { label })}" data-label="${label}" hidden></canvas>
<button type="button" class="button secondary sig-button" data-sign="${id}" aria-describedby="${id}-label">${w.t(f.type === 'initials' ? 'sign.addInitials' : 'sign.addSignature')}</button>${error}</div>`;
    case 'attachment':
      return attachmentControl(w, f, id);
    case 'date_signed':
      return html`<div class="ctl"><span class="sig-label">${words}</span><p class="auto-date">${signedOn} <span class="muted">— ${w.t('sign.autoDate')}</span></p></div>`;
    default:
      // Typed values run in the writing's own direction (a Latin address on an Arabic page).
      if (f.multiline) return html`<div class="ctl"><label for="${id}">${words}${star}</label><textarea ${common} dir="auto" rows="3"${f.max_length ? html` maxlength="${f.max_length}"` : ''}${required}>${value}</textarea>${error}</div>`;
      return html`<div class="ctl"><label for="${id}">${words}${star}</label><input type="${TYPE_ATTR[f.type] ?? 'text'}" ${common} dir="auto" value="${value}"${f.type === 'number' ? html` inputmode="decimal"` : ''}${f.max_length ? html` maxlength="${f.max_length}"` : ''}${f.type === 'email' ? html` autocomplete="email"` : ''}${f.formula ? html` readonly` : ''}${required}>${error}</div>`;
  }
}

/**
 * A narrow screen starts in guided mode (assets/guided.ts) when the signer has at least this many
 * fields: a long form is walked one field at a time; a few fields read faster as the list.
 */
const GUIDED_MIN_FIELDS = 8;

/** The page for an open link: the document, this signer's fields, consent and the finish button. */
 /**
 * Each page's box at its size from the server (issue 43 item 4), in the HTML itself, so nothing moves
 * when the script, pdf.js or the PDF arrive (CLS), and the first page's picture (first-page.webp) is
 * asked for with the stylesheets by the browser's preload scanner, not after the scripts ran. sign.ts
 * places the markers on these boxes and draws each page crisp with pdf.js over its placeholder.
 */
function pageBoxes(w: Words, sizes: PageSize[] | null, firstPage: string | undefined): SafeHtml | string {
  if (!sizes) return '';
  const total = sizes.length;
  // The page's CSP allows no style attribute: an empty SVG with the page's viewBox gives the box its
  // height (its aspect ratio) until sign.ts sets the box's own.
  return html`${sizes.map(([width, height], i) => html`<div class="page pending" data-page="${i + 1}"><svg class="page-frame" viewBox="0 0 ${width} ${height}" aria-hidden="true"></svg><div class="page-placeholder"><span class="spinner" aria-hidden="true"></span><span>${w.t('sign.pageLoading', { page: i + 1, total })}</span></div>${i === 0 && firstPage ? html`<img class="page-image" src="${firstPage}" width="${Math.round(width)}" height="${Math.round(height)}" alt="${w.t('sign.pageLabel', { page: 1, total })}" fetchpriority="high">` : ''}</div>`)}`;
}

/** "By signing, you sign as: Approved." — the meaning in bold, in its own direction inside any sentence. */
function meaningLine(w: Words, meaning: string): SafeHtml {
  const [before, after] = checkWords(w.locale).meaning.split('{meaning}');
  return html`${before}<strong><bdi>${meaning}</bdi></strong>${after ?? ''}`;
}

/** `finishCheck`: the dialog of a check asked again at Finish (check-html.ts finishCheckDialog), when the sender asked for one. */
export function openPage(w: Words, page: SigningPage & { pageSizes?: PageSize[] | null }, urls: { document: string; firstPage?: string; submit: string; decline: string; draft: string; signatureStyles: string; reassign?: string | undefined }, today: string, embed?: SafeHtml, finishCheck?: SafeHtml): SafeHtml {
  const mine = page.fields.map((f, i) => ({ f, id: `field-${i}` })).filter(({ f }) => f.mine);
  const own: PageField = { name: OWN_SIGNATURE_KEY, type: 'signature', label: w.t('sign.yourSignature'), required: true, page: 0, x: 0, y: 0, width: 0, height: 0, mine: true, value: null };
  // Conditional fields (issue 41): a field whose condition does not hold yet starts hidden; the
  // script (the same evaluator) shows and hides them as values change.
  const logic = page.fields.some((f) => f.condition || f.formula);
  const hidden = logic ? applyFieldLogic(page.fields, Object.fromEntries(page.fields.map((f) => [f.name, f.value]))).hidden : new Set<string>();
  const wrapped = (f: PageField, id: string): SafeHtml => (logic ? html`<div class="ctl-wrap" data-wrap="${id}"${hidden.has(f.name) ? html` hidden` : ''}>${control(w, f, id, today)}</div>` : control(w, f, id, today));
  const signatureFields = [...mine.filter(({ f }) => f.type === 'signature' || f.type === 'initials'), ...(page.ownSignature ? [own] : [])];
  const controls = [...mine.map(({ f, id }) => wrapped(f, id)), ...(page.ownSignature ? [control(w, own, 'field-own', today)] : [])];
  const config = JSON.stringify({
    document: urls.document,
    submit: urls.submit,
    locale: w.locale,
    pdfjs: SIGN_ASSETS.pdfjs.url,
    pdfjsWorker: SIGN_ASSETS.pdfjsWorker.url,
    standardFonts: STANDARD_FONTS_URL,
    signaturePad: SIGN_ASSETS.signaturePad.url,
    fonts: SIGN_FONTS,
    valueRules: SIGN_ASSETS.valueRules.url,
    ...(logic ? { fieldLogic: SIGN_ASSETS.fieldLogic.url } : {}),
    text: scriptText(w.locale),
    fields: page.fields.map((f, i) => ({ ...f, id: `field-${i}` })),
    allow_reassign: urls.reassign !== undefined,
    draft_saved_at: page.draftSavedAt,
    pages: page.pageSizes ?? null,
    first_page: page.pageSizes && urls.firstPage ? urls.firstPage : null,
    adopt: { script: SIGN_ASSETS.adoptSignature.url, styles: urls.signatureStyles, name: page.recipientGivenName, text: adoptWords(w.locale), limits: { ...UPLOAD_LIMITS, signatureBytes: MAX_SIGNATURE_BYTES } },
  } satisfies SignPageConfig);
  const sender = html`<bdi>${page.senderName}</bdi>`;
  const who = page.recipientName ? w.h('sign.leadName', { sender, recipient: html`<strong><bdi>${page.recipientName}</bdi></strong>` }) : w.h('sign.leadYou', { sender });
  const menu = actionsMenu(w, { document: urls.document, reassign: urls.reassign ?? null, sender: page.senderName, contactEmail: page.contactEmail, canFinishLater: controls.length > 0 });
  const long = mine.filter(({ f }) => f.type !== 'date_signed').length + (page.ownSignature ? 1 : 0) >= GUIDED_MIN_FIELDS;
  const body = html`<main class="sign-main${long ? ' long-form' : ''}" id="signing" data-config="${config}">
<div class="sign-top">${menu}</div>
<div class="sign-intro">
<h1><bdi>${page.formName}</bdi></h1>
<p class="lead">${who}${page.expiresAt ? html` ${w.h('sign.validUntil', { date: when(w, page.expiresAt) })}` : ''}</p>
${senderMessage(w, page.senderName, page.message)}
</div>
<div class="sign-layout">
<section class="doc" aria-label="${w.t('sign.document')}">
<div class="doc-status" id="doc-status" role="status">${w.t('sign.loading')}</div>
<div class="pages" id="pages" dir="ltr">${pageBoxes(w, page.pageSizes ?? null, urls.firstPage)}</div>
<p class="doc-fallback"><a href="${urls.document}" target="_blank" rel="noopener">${w.t('sign.openPdf')}</a></p>
</section>
<aside class="panel" aria-labelledby="panel-title">
<form id="sign-form" novalidate>
<h2 id="panel-title">${w.t('sign.yourFields')}</h2>
<p class="progress muted" id="progress">${controls.length === 0 ? w.t('sign.noFields') : w.t('sign.requiredHint')}</p>
<div class="guide" id="guide">
<div class="guide-row"><p class="guide-progress" id="guide-progress" aria-live="polite"></p>
<button type="button" class="button secondary" id="next-field">${w.t('sign.nextField')}</button>
<button type="submit" class="button guide-finish" id="guide-finish">${w.t('sign.finish')}</button></div>
<div class="form-error" id="form-error" role="alert" tabindex="-1" hidden></div>
</div>
<div class="controls">${controls}</div>
${page.meaning ? html`<p class="meaning" id="meaning">${meaningLine(w, page.meaning)}</p>` : ''}
<div class="consent ctl check"><input type="checkbox" id="consent" required aria-required="true"><label for="consent">${w.t('sign.consent')}</label></div>
<button type="submit" class="button finish" id="finish">${w.t('sign.finishAndSign')}</button>
</form>
${controls.length > 0 ? draftControls(w, urls.draft) : ''}
${declineControls(w, urls.decline)}
${urls.reassign ? html`<p class="reassign-link"><a href="${urls.reassign}">${reassignWords(w.locale).link}</a></p>` : ''}
</aside>
</div>
</main>
${signatureDialog(w, { signatureFields: signatureFields.length })}
${finishCheck}
<script type="module" src="${SIGN_ASSETS.script.url}"></script>
<script type="module" src="${SIGN_ASSETS.missingBar.url}"></script>${mine.some(({ f }) => f.type === 'attachment') ? html`
<script type="module" src="${SIGN_ASSETS.attachments.url}"></script>` : ''}
<script type="module" src="${SIGN_ASSETS.guided.url}"></script>`;
  // The page's script and the modules it imports at once, asked for with the stylesheets rather than
  // one after another as each import is reached. pdf.js only when no picture of the first page stands
  // in for it: then its 120 KB would share a slow network with the picture (issue 43 item 4).
  const picture = Boolean(page.pageSizes && urls.firstPage);
  const preload = html`<link rel="modulepreload" href="${SIGN_ASSETS.script.url}">
<link rel="modulepreload" href="${SIGN_ASSETS.valueRules.url}">${picture ? '' : html`
<link rel="modulepreload" href="${SIGN_ASSETS.pdfjs.url}">`}`;
  // The picture first: on a slow phone's six connections it is the long pole (88 KB of 140 KB for the
  // 1040), so it starts with the stylesheets instead of queueing behind the page's small scripts.
  const first = picture ? html`<link rel="preload" as="image" href="${urls.firstPage}" fetchpriority="high">` : undefined;
  return shell(w, w.t('sign.title', { form: page.formName }), body, { subtitle: page.formName, head: embed ? html`${preload}\n${embed}` : preload, first, brand: page.brand });
}

const EXPIRED_ICON = html`<svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="13" r="8"/><path d="M12 9v4l2.5 2.5M9 2h6"/></svg>`;

/** The link's form expired: nothing can be signed any more; the signer is told whom to ask. */
export function expiredPage(w: Words, page: SigningPage, embed?: SafeHtml): SafeHtml {
  const contact = page.contactEmail
    ? html`<p class="contact">${w.h('expired.contact', { sender: page.senderName, email: html`<a href="mailto:${page.contactEmail}">${page.contactEmail}</a>` })}</p>`
    : '';
  const body = html`<main class="sign-main narrow"><section class="notice card">
<p class="notice-icon expired" aria-hidden="true">${EXPIRED_ICON}</p>
<h1>${w.t('expired.heading')}</h1>
<p class="lead">${w.h('expired.text', { form: page.formName, date: when(w, page.expiresAt), sender: html`<strong>${page.senderName}</strong>` })}</p>
${contact}
</section></main>`;
  return shell(w, w.t('expired.title', { form: page.formName }), body, { head: embed, brand: page.brand });
}

/**
 * No link by this address (mistyped, cut short, or never issued). A signer lands here: no developer
 * links (API reference, health), only what to do.
 */
export function invalidLinkPage(w: Words, requestId: string): SafeHtml {
  const body = html`<main class="sign-main narrow"><section class="notice card">
<p class="status">404</p>
<h1>${w.t('invalid.heading')}</h1>
<p class="lead">${w.t('invalid.text')}</p>
<p class="muted">${w.t('invalid.hint')}</p>
<p class="request-id muted"><code>${requestId}</code></p>
</section></main>`;
  return shell(w, w.t('invalid.title'), body);
}

/** This recipient has signed: a read-only confirmation, with the signed copy once it is sealed. */
export function signedPage(w: Words, page: SigningPage, urls: { signedPdf: string }, embed?: SafeHtml): SafeHtml {
  const sealing = !page.sealed && page.waitingFor === 0;
  const status = page.sealed
    ? html`<p>${w.t('signed.sealed')}</p>
<div class="actions"><a class="button" href="${urls.signedPdf}" download>${w.t('signed.download')}</a></div>`
    : page.waitingFor > 0
      ? html`<p>${page.waitingFor === 1 ? w.t('signed.waitingOne') : w.t('signed.waitingMany', { count: page.waitingFor })}</p>`
      : html`<p class="sealing" role="status"><span class="spinner" aria-hidden="true"></span> ${w.t('signed.sealing')}</p>`;
  const body = html`<main class="sign-main narrow"><section class="notice card">
<p class="notice-icon done" aria-hidden="true">✓</p>
<h1>${w.t('signed.heading', { form: page.formName })}</h1>
<p class="lead">${w.h('signed.when', { date: when(w, page.signedAt) })}</p>
${status}
</section></main>`;
  return shell(w, w.t('signed.title', { form: page.formName }), body, { head: sealing ? html`<script type="module" src="${SIGN_ASSETS.waitScript.url}"></script>${embed}` : embed, brand: page.brand });
}
