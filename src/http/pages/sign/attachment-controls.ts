import type { PageField } from '../../../domain/signing/signing-page.js';
import { attachmentRules, typeWord } from '../../../domain/signing/attachments/attachment-file.js';
import { fileSizeText } from '../../../lib/file-size.js';
import { html, type SafeHtml } from '../html.js';
import type { Words } from './sign-words.js';

// An attachment field on the signing page (issue 41): its label and what it takes, the files attached
// so far (each with a Remove button), "Add a file" and, where images are taken, "Take a photo" (a file
// input with `capture`, so a phone opens its camera). assets/attachments.ts uploads and removes; the
// page's script (sign.js) knows the field by its `data-field` button, whose value is the files' names
// (what it checks "required" by and shows on the document's box).

export function attachmentControl(w: Words, f: PageField, id: string): SafeHtml {
  const { accept, maxFiles } = attachmentRules(f);
  const label = f.label ?? f.name;
  const star = f.required ? html`<span class="req" aria-hidden="true">*</span>` : '';
  const files = f.files ?? [];
  const types = accept.map(typeWord).join(', ');
  const hint = maxFiles === 1 ? w.t('attach.hintOne', { types }) : w.t('attach.hintMany', { types, count: maxFiles });
  const images = accept.filter((t) => t !== 'application/pdf');
  const full = files.length >= maxFiles;
  return html`<div class="ctl attach" data-attach="${id}" data-field-name="${f.name}" data-max="${maxFiles}" data-accept="${accept.join(',')}">
<span class="sig-label" id="${id}-label">${label}${star}</span>
<p class="muted attach-hint" id="${id}-hint">${hint}</p>
<ul class="attach-list" id="${id}-list">${files.map((x) => html`<li data-attachment="${x.id}"><span class="attach-name" dir="auto">${x.filename}</span> <span class="muted">${fileSizeText(x.size)}</span> <button type="button" class="link-button" data-remove="${x.id}" aria-label="${w.t('attach.removeName', { name: x.filename })}">${w.t('attach.remove')}</button></li>`)}</ul>
<div class="attach-actions">
<button type="button" class="button secondary attach-add" id="${id}" data-field="${f.name}" data-type="attachment" value="${files.map((x) => x.filename).join(', ')}" aria-labelledby="${id}-label ${id}" aria-describedby="${id}-hint ${id}-error"${full ? html` disabled` : ''}>${w.t('attach.add')}</button>
${images.length > 0 ? html`<button type="button" class="button secondary attach-photo" id="${id}-photo" aria-labelledby="${id}-label ${id}-photo" hidden${full ? html` disabled` : ''}>${w.t('attach.photo')}</button>` : ''}
</div>
<input type="file" class="attach-input" id="${id}-file" accept="${accept.join(',')}"${maxFiles > 1 ? html` multiple` : ''} hidden tabindex="-1" aria-hidden="true">
${images.length > 0 ? html`<input type="file" class="attach-input" id="${id}-camera" accept="${images.join(',')}" capture="environment" hidden tabindex="-1" aria-hidden="true">` : ''}
<p class="muted attach-status" id="${id}-status" role="status" aria-live="polite"></p>
<p class="field-error" id="${id}-error" hidden></p>
</div>`;
}
