import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import { AppError } from '../../domain/errors.js';
import { resolveSession } from '../../domain/users/sessions.js';
import { acceptsEncoding } from '../accept-encoding.js';
import { html } from '../pages/html.js';
import { LAYOUT_ASSETS, layout } from '../pages/layout.js';
import { sendPage } from '../pages/send-page.js';
import { setSecurityHeaders } from '../pages/security-headers.js';
import { SIGN_ASSETS, STANDARD_FONTS_URL } from '../pages/sign/sign-assets.js';
import { readSessionCookie } from './session-cookie.js';

// The built dashboard (web/dist, made by scripts/build-web.mjs): every address under /dashboard is the
// app's one page, whose assets carry their content hash in their names and are cached for a year. The
// build writes Brotli and gzip copies beside each asset, so nothing is compressed per request.

export const DIST_DIR = fileURLToPath(new URL('../../../web/dist/', import.meta.url));
const ASSETS_URL = '/dashboard/assets/';
const CONFIG_PLACEHOLDER = '__FORMSIGN_CONFIG__';
const ICON_PLACEHOLDER = '__FORMSIGN_ICON__';

/** The app's policy: this origin only; pdf.js runs its worker from here and draws into canvases. */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  // The dev outbox shows an e-mail as a sandboxed document of this origin (api-outbox.ts).
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

interface BuiltAsset {
  file: string;
  type: string;
  body?: Buffer;
  br?: Buffer | null;
  gz?: Buffer | null;
}

function readOptional(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

async function sendAsset(asset: BuiltAsset, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  setSecurityHeaders(reply).header('Cache-Control', 'public, max-age=31536000, immutable').header('Vary', 'Accept-Encoding').type(asset.type);
  const accepts = req.headers['accept-encoding'];
  if (acceptsEncoding(accepts, 'br') && (asset.br ??= readOptional(`${asset.file}.br`))) return reply.header('Content-Encoding', 'br').send(asset.br);
  if (acceptsEncoding(accepts, 'gzip') && (asset.gz ??= readOptional(`${asset.file}.gz`))) return reply.header('Content-Encoding', 'gzip').send(asset.gz);
  return reply.send((asset.body ??= fs.readFileSync(asset.file)));
}

/**
 * What the page needs from the server: where pdf.js is (shared with the signing page), and whether the
 * browser has a live session, so a signed-out visitor goes straight to the sign-in form instead of
 * first asking the API and getting a 401.
 */
function pageConfig(signedIn: boolean, devOutbox: boolean, sso: boolean): string {
  const json = JSON.stringify({ pdfjs: SIGN_ASSETS.pdfjs.url, pdfjsWorker: SIGN_ASSETS.pdfjsWorker.url, standardFonts: STANDARD_FONTS_URL, signedIn, devOutbox, sso });
  return json.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const notBuilt = layout({
  title: 'Dashboard · Formsign',
  current: '/dashboard',
  main: html`<h1>The dashboard is not built</h1>
<p class="lead">This server found no built dashboard in <code>web/dist</code>. <code>npm install</code> and <code>npm start</code> build it; to build it by hand:</p>
<pre><code>npm run build:web</code></pre>
<div class="actions"><a class="button" href="/docs">API reference</a><a class="button secondary" href="/">Formsign home</a></div>`,
});

/** `devOutbox`: the dev outbox page is offered (issue 24: only where messages stay in it). */
export function registerSpa(app: FastifyInstance, deps: DomainDeps, distDir = DIST_DIR, devOutbox = false): void {
  const indexFile = path.join(distDir, 'index.html');
  const built = fs.existsSync(indexFile);
  let index: string | undefined;
  const sendIndex = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!built) return sendPage(reply, notBuilt, { status: 503 });
    index ??= fs.readFileSync(indexFile, 'utf8').replace(ICON_PLACEHOLDER, LAYOUT_ASSETS.icon.url);
    const signedIn = (await resolveSession(deps, readSessionCookie(req))) !== undefined;
    return setSecurityHeaders(reply, DASHBOARD_CSP).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(index.replace(CONFIG_PLACEHOLDER, pageConfig(signedIn, devOutbox, deps.oidc !== undefined)));
  };
  app.get('/dashboard', sendIndex);
  app.get('/dashboard/*', sendIndex);

  const assetsDir = path.join(distDir, 'assets');
  if (built && fs.existsSync(assetsDir)) {
    for (const name of fs.readdirSync(assetsDir)) {
      const ext = path.extname(name);
      if (ext === '.br' || ext === '.gz') continue;
      const asset: BuiltAsset = { file: path.join(assetsDir, name), type: TYPES[ext] ?? 'application/octet-stream' };
      app.get(`${ASSETS_URL}${name}`, (req, reply) => sendAsset(asset, req, reply));
    }
  }
  app.get(`${ASSETS_URL}*`, async () => {
    throw new AppError('resource_not_found', 'No dashboard file at this address. Reload the dashboard: it may have been updated.');
  });
}
