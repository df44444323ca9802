import type { FastifyInstance } from 'fastify';
import { LOGO_PATH, readLogo } from '../../domain/branding/branding.js';
import type { DomainDeps } from '../../domain/context.js';
import { setSecurityHeaders } from './security-headers.js';
import { parseHexColour, toHex, washOf } from '../../lib/colour-contrast.js';

// An account's brand on pages and in e-mails (issue 42): its logo, and the stylesheet that sets its
// accent (pages allow no inline style, so the colour travels as a stylesheet named by the colour).
//
// The logo (issue 42), public because e-mails show it: addressed by its SHA-256, so the
// address says nothing of the account and can be cached for good. An SVG was sanitised at upload; it
// is still served under a policy that lets it run nothing and load nothing, in case it is opened alone.
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** The address of the stylesheet that gives a page the accent `#rrggbb`. */
export function accentStylesheet(accent: string): string {
  return `${ACCENT_PATH}${accent.slice(1)}.css`;
}

const ACCENT_PATH = '/brand/accent/';

/**
 * The accent in light mode only: a dark page keeps Formsign's light accent, which is what reaches
 * 4.5:1 on its dark background (an accent checked against white would not). The wash (selected
 * tabs, badges) is the accent at 8% on white (colour-contrast.ts washOf, which the check includes).
 */
export function accentCss(hex: string): string {
  const wash = toHex(washOf(parseHexColour(`#${hex}`)!));
  return `@media not all and (prefers-color-scheme: dark) {\n  :root { --accent: #${hex}; --accent-ink: #ffffff; --accent-wash: ${wash}; }\n}\n`;
}

export function registerBrandAssets(app: FastifyInstance, deps: Pick<DomainDeps, 'db'>): void {
  app.get<{ Params: { file: string } }>(`${ACCENT_PATH}:file`, async (req, reply) => {
    const m = /^([0-9a-f]{6})\.css$/.exec(req.params.file);
    if (!m) return setSecurityHeaders(reply).code(404).type('text/plain; charset=utf-8').send('No such stylesheet.');
    return setSecurityHeaders(reply).header('Cache-Control', 'public, max-age=31536000, immutable').type('text/css; charset=utf-8').send(accentCss(m[1]!));
  });
  app.get<{ Params: { file: string } }>(`${LOGO_PATH}:file`, async (req, reply) => {
    const m = /^([0-9a-f]{64})\.(png|svg)$/.exec(req.params.file);
    const found = m ? await readLogo(deps, m[1]!) : undefined;
    if (!m || !found || (m[2] === 'png') !== (found.type === 'image/png')) {
      return setSecurityHeaders(reply).code(404).type('text/plain; charset=utf-8').send('No such logo.');
    }
    return setSecurityHeaders(reply, found.type === 'image/svg+xml' ? SVG_CSP : undefined)
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .type(found.type)
      .send(found.bytes);
  });
}
