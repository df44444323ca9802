import { html, type SafeHtml } from '../html.js';
import { layout } from '../layout.js';
import fs from 'node:fs';
import { readPageScript } from '../page-scripts.js';
import { StaticAsset } from '../static-asset.js';

// The /verify page: a drop zone, and the verdict drawn by verify.js from POST /verify's answer.

/** A file of ./assets, served under /assets/verify/ with its content hash in its name; a script is compiled from its .ts (page-scripts.js). */
function asset(file: string, type: string): StaticAsset {
  const dot = file.lastIndexOf('.');
  const url = new URL(`./assets/${file}`, import.meta.url);
  return new StaticAsset('/assets/verify/', file.slice(0, dot), file.slice(dot + 1), type, () => (file.endsWith('.js') ? readPageScript(url) : fs.readFileSync(url)));
}

export const VERIFY_ASSETS = {
  verdict: asset('verdict.js', 'text/javascript; charset=utf-8'),
  js: asset('verify.js', 'text/javascript; charset=utf-8'),
  css: asset('verify.css', 'text/css; charset=utf-8'),
} as const;

// Its own script and its fetch to this origin; nothing else, from nowhere else.
export const VERIFY_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";


export function verifyPage(): SafeHtml {
  const main = html`<h1>Verify a signed PDF</h1>
<p class="lead">Check whether a PDF's digital signatures are valid, whether anything changed after it was signed, and whether this service sealed it. PDFs signed elsewhere are checked too.</p>
<form id="verify-form" class="verify-form">
<label class="drop" id="drop" for="file">
<input type="file" id="file" name="file" accept="application/pdf,.pdf">
<span class="drop-title">Drop a PDF here</span>
<span class="drop-or">or <span class="button">Choose a PDF</span></span>
<span class="muted drop-note">At most 20 MB. The file is checked on this server and not kept; nothing is sent anywhere else.</span>
</label>
</form>
<p id="status" class="verify-status" role="status" aria-live="polite"></p>
<section id="result" class="verify-result" hidden aria-labelledby="verdict">
<h2 id="verdict" class="verdict"></h2>
<p id="verdict-detail" class="verdict-detail"></p>
<dl id="facts" class="facts"></dl>
<h3>Signatures</h3>
<ol id="signatures" class="signatures"></ol>
</section>
<noscript><p>This page needs JavaScript to read your file. Without it, use <code>formsign verify FILE.pdf</code> or <code>POST /api/v1/verify</code>.</p></noscript>`;
  return layout({
    title: 'Verify a signed PDF — Formsign',
    main,
    head: html`<link rel="stylesheet" href="${VERIFY_ASSETS.css.url}">
<script src="${VERIFY_ASSETS.verdict.url}"></script>
<script type="module" src="${VERIFY_ASSETS.js.url}"></script>`,
  });
}
