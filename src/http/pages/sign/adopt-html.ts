import { html, type SafeHtml } from '../html.js';
import { adoptWords } from './adopt-words.js';
import type { Words } from './sign-words.js';

// The "Adopt a signature" dialog (issue 43 item 7): Draw (the pad; the whole screen on a phone), Type
// (the recipient's name already in, its script's three styles drawn by the server as outlines:
// src/pdf/signature-style), Upload (a PNG or JPEG, its light background made transparent in the
// browser: assets/adopt-signature.ts), and "use for every signature and initials field of mine" when
// the signer has more than one. assets/sign.ts runs it; assets/adopt-signature.ts does the new parts.

/** Bounds of an uploaded image, checked in the browser before it is decoded (adopt-signature.ts). */
export const UPLOAD_LIMITS = { bytes: 5 * 1024 * 1024, pixels: 25_000_000 } as const;

export function signatureDialog(w: Words, opts: { signatureFields: number }): SafeHtml {
  const a = adoptWords(w.locale);
  const mb = String(UPLOAD_LIMITS.bytes / 1024 / 1024);
  const mp = String(UPLOAD_LIMITS.pixels / 1_000_000);
  return html`<dialog class="sig-dialog" id="sig-dialog" aria-labelledby="sig-title">
<form method="dialog" class="sig-dialog-form">
<h2 id="sig-title">${w.t('dialog.signatureTitle')}</h2>
<div class="tabs" role="tablist" aria-label="${w.t('dialog.howToSign')}">
<button type="button" role="tab" id="tab-draw" aria-controls="pane-draw" aria-selected="true">${w.t('dialog.draw')}</button>
<button type="button" role="tab" id="tab-type" aria-controls="pane-type" aria-selected="false" tabindex="-1">${w.t('dialog.type')}</button>
<button type="button" role="tab" id="tab-upload" aria-controls="pane-upload" aria-selected="false" tabindex="-1">${a.upload}</button>
</div>
<div class="pane" id="pane-draw" role="tabpanel" aria-labelledby="tab-draw">
<canvas class="pad" id="pad" tabindex="0" aria-label="${w.t('dialog.pad')}" role="img"></canvas>
<div class="pad-actions"><span class="muted">${w.t('dialog.drawInside')}</span><button type="button" class="link-button" id="pad-clear">${w.t('dialog.clear')}</button></div>
</div>
<div class="pane" id="pane-type" role="tabpanel" aria-labelledby="tab-type" hidden>
<label for="typed">${w.t('dialog.typeName')}</label>
<input type="text" id="typed" autocomplete="name" maxlength="60" dir="auto">
<fieldset class="sig-styles" id="sig-styles" hidden><legend>${a.styles}</legend><div class="sig-style-list" id="sig-style-list"></div></fieldset>
<p class="muted" id="styles-failed" hidden>${a.stylesFailed}</p>
<canvas class="typed-preview" id="typed-preview" width="1200" height="300" role="img" aria-label="${w.t('dialog.typedPreview')}"></canvas>
</div>
<div class="pane" id="pane-upload" role="tabpanel" aria-labelledby="tab-upload" hidden>
<label for="sig-upload">${a.uploadLabel}</label>
<input type="file" id="sig-upload" accept="image/png,image/jpeg" aria-describedby="sig-upload-hint">
<p class="muted" id="sig-upload-hint">${a.uploadHint.replace('{mb}', mb).replace('{mp}', mp)}</p>
<canvas class="typed-preview upload-preview" id="upload-preview" width="1200" height="300" role="img" aria-label="${a.uploadPreview}" hidden></canvas>
</div>
<p class="form-error" id="sig-error" role="alert" hidden></p>
${opts.signatureFields > 1 ? html`<div class="sig-all"><input type="checkbox" id="sig-all"><label for="sig-all">${a.useForAll}</label></div>` : ''}
<div class="dialog-actions">
<button type="button" class="button secondary" id="sig-cancel">${w.t('dialog.cancel')}</button>
<button type="button" class="button" id="sig-apply">${w.t('dialog.apply')}</button>
</div>
</form>
</dialog>`;
}
