import type { SigningPage } from '../../../domain/signing/signing-page.js';
import { formatUtc, fill } from '../../../lib/i18n/index.js';
import { roleWords } from '../../../lib/i18n/role-words.js';
import { html, type SafeHtml } from '../html.js';
import { senderMessage } from './brand-html.js';
import { declineControls } from './decline-controls.js';
import { shell } from './sign-html.js';
import { SIGN_ASSETS } from './sign-assets.js';
import { scriptText, type Words } from './sign-words.js';

// The page of a recipient who does not sign (issue 42): an approver reads the document and approves
// or declines (assets/approve.ts posts the approval; the decline is the signer's dialog, decline.js);
// a cc and a viewer read it (a viewer's opening was recorded when this page was built). No fields, no
// pdf.js: the document opens as the PDF itself, in the browser's own viewer.

export interface RoleUrls {
  document: string;
  /** The sealed copy, once the form is complete. */
  signedPdf: string;
  approve: string;
  decline: string;
}

function when(w: Words, iso: string): SafeHtml {
  return html`<time datetime="${iso}" data-local="datetime">${formatUtc(w.locale, iso)}</time>`;
}

export function rolePage(w: Words, page: SigningPage, urls: RoleUrls, embed?: SafeHtml): SafeHtml {
  const r = roleWords(w.locale);
  const role = page.role === 'signer' ? 'viewer' : page.role;
  const done = page.role === 'approver' && page.state === 'signed';
  const text = { ...scriptText(w.locale), 'approve.approve': r['page.approve'], 'approve.approving': r['page.approving'], 'approve.failed': r['page.approveFailed'] };
  const [beforeDate, afterDate] = r['page.approvedWhen'].split('{date}');
  const lead = done
    ? html`${beforeDate}${page.signedAt ? when(w, page.signedAt) : ''}${afterDate ?? ''}`
    : fill(r[`page.${role}Lead` as const], { sender: page.senderName });
  const heading = done ? fill(r['page.approvedHeading'], { form: page.formName }) : page.formName;
  const documentUrl = page.sealed ? urls.signedPdf : urls.document;
  const status = done
    ? page.sealed ? html`<p>${w.t('signed.sealed')}</p>` : page.waitingFor > 0 ? html`<p>${page.waitingFor === 1 ? w.t('signed.waitingOne') : w.t('signed.waitingMany', { count: page.waitingFor })}</p>` : html`<p>${w.t('signed.sealing')}</p>`
    : '';
  const approving = page.role === 'approver' && !done;
  const body = html`<main class="sign-main narrow" id="signing" data-config="${JSON.stringify({ text })}">
<section class="card role-card" aria-labelledby="role-title">
<h1 id="role-title">${heading}</h1>
<p class="lead">${lead}${!done && page.expiresAt && page.role !== 'cc' ? html` ${w.h('sign.validUntil', { date: when(w, page.expiresAt) })}` : ''}</p>
${senderMessage(w, page.senderName, page.message)}
${status}
<div class="actions">
<a class="button${approving ? ' secondary' : ''}" href="${documentUrl}" target="_blank" rel="noopener"${page.sealed ? html` download` : ''}>${page.sealed ? w.t('signed.download') : r['page.openDocument']}</a>
${approving ? html`<button type="button" class="button" id="approve" data-approve="${urls.approve}">${r['page.approve']}</button>` : ''}
</div>
${approving ? html`<p class="form-error role-error" id="approve-error" role="alert" hidden></p>
${declineControls(w, urls.decline)}
<script type="module" src="${SIGN_ASSETS.approveScript.url}"></script>` : ''}
</section></main>`;
  return shell(w, heading, body, { subtitle: page.formName, head: embed, brand: page.brand });
}
