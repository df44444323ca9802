import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { servedDocument, type OpenApiDocument } from '../openapi.js';
import { html } from './html.js';
import { LAYOUT_ASSETS } from './layout.js';
import { DOCS_CSP, setSecurityHeaders } from './security-headers.js';
import { sendPage } from './send-page.js';
import { StaticAsset, localAsset, registerAssets } from './static-asset.js';

// The public API reference: Redoc's standalone bundle, as shipped inside @redocly/cli, served from
// here with the served document, so the page works offline and no request leaves this origin.
// Redoc's telemetry is switched off and it is given system fonts (it loads no web font itself).

const REDOC_BUNDLE = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'lib', 'chunks', 'redoc.standalone.js');

// Corrections to Redoc's own styles on narrow screens (it takes no media queries in its theme option).
const stylesheet = localAsset('/docs/', 'docs.css', 'text/css; charset=utf-8');

// Redoc credits itself with a logo it loads from its CDN and has no option to change: the credit
// stays, drawn from a file served here.
const attribution = localAsset('/docs/', 'redocly-logo.svg', 'image/svg+xml');

const redoc = new StaticAsset('/docs/', 'redoc', 'js', 'text/javascript; charset=utf-8', () =>
  Buffer.from(fs.readFileSync(REDOC_BUNDLE, 'utf8').replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g, attribution.url)),
);

const REDOC_OPTIONS = {
  disableTelemetry: true,
  expandResponses: '200,201',
  jsonSampleExpandLevel: 3,
  hideLoading: false,
};

// A module of its own (the page allows no inline script); it names the bundle by its hashed address.
const start = new StaticAsset('/docs/', 'start', 'js', 'text/javascript; charset=utf-8', () =>
  Buffer.from(
    `import { init } from ${JSON.stringify(redoc.url)};\n` +
      `init('/docs/openapi.json', ${JSON.stringify(REDOC_OPTIONS)}, document.getElementById('redoc'));\n`,
  ),
);

export function registerDocs(app: FastifyInstance, doc: OpenApiDocument, baseUrl: string): void {
  registerAssets(app, [redoc, start, attribution, stylesheet]);
  let json: Buffer | undefined;
  app.get('/docs/openapi.json', (_req, reply) => {
    json ??= Buffer.from(JSON.stringify(servedDocument(doc, baseUrl)));
    return setSecurityHeaders(reply).header('Cache-Control', 'public, max-age=300').type('application/json; charset=utf-8').send(json);
  });
  app.get('/docs', (_req, reply) => {
    const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Formsign</title>
<link rel="icon" href="${LAYOUT_ASSETS.icon.url}" type="image/svg+xml">
<link rel="stylesheet" href="${stylesheet.url}">
<script type="module" src="${start.url}"></script>
</head>
<body>
<div id="redoc"></div>
<noscript><p>The API reference needs JavaScript. The same document is at <a href="/docs/openapi.json">/docs/openapi.json</a>.</p></noscript>
</body>
</html>
`;
    return sendPage(reply, page, { csp: DOCS_CSP });
  });
}
