import { html, type SafeHtml } from './html.js';
import { localAsset } from './static-asset.js';

/** The stylesheet and icon every page links to; `registerPages` serves them. */
export const LAYOUT_ASSETS = {
  css: localAsset('/assets/', 'formsign.css', 'text/css; charset=utf-8'),
  icon: localAsset('/assets/', 'favicon.svg', 'image/svg+xml'),
} as const;

const LOGO = html`<svg viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#3b4fd8"/><path d="M10 7h9l5 5v13a1 1 0 0 1-1 1H10a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z" fill="#fff"/><path d="M19 7v5h5" fill="#c9cff8"/><path d="M12 21c1.5-2.5 2.5-2.5 3 0s1.6 2 3.2-.6" stroke="#3b4fd8" stroke-width="1.6" fill="none" stroke-linecap="round"/><path d="M12 16h8" stroke="#c9cff8" stroke-width="1.6" stroke-linecap="round"/></svg>`;

const NAV: ReadonlyArray<readonly [string, string]> = [
  ['/docs', 'API reference'],
  ['/dashboard', 'Dashboard'],
  ['/healthz', 'Health'],
];

export interface PageOptions {
  title: string;
  /** The page's content, inside `<main>`. */
  main: SafeHtml;
  /** The nav entry to mark as current, e.g. `/dashboard`. */
  current?: string;
  /** Extra elements for `<head>` (e.g. a page's own script, from this origin). */
  head?: SafeHtml;
}

/** The shared page shell: header with the brand and navigation, the content, a footer. */
export function layout(o: PageOptions): SafeHtml {
  const nav = NAV.map(([href, label]) => html`<a href="${href}"${o.current === href ? html` aria-current="page"` : ''}>${label}</a>`);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title}</title>
<link rel="icon" href="${LAYOUT_ASSETS.icon.url}" type="image/svg+xml">
<link rel="stylesheet" href="${LAYOUT_ASSETS.css.url}">
${o.head}
</head>
<body>
<header class="site-header"><div class="inner">
<a class="brand" href="/">${LOGO}<span>Formsign</span></a>
<nav class="site-nav" aria-label="Main">${nav}</nav>
</div></header>
<main id="content"><div class="inner">
${o.main}
</div></main>
<footer class="site-footer"><div class="inner">
<span>Formsign — open-source PDF forms, e-signatures and signed webhooks.</span>
<span>Apache-2.0</span>
</div></footer>
</body>
</html>
`;
}
