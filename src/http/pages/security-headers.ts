import type { FastifyReply } from 'fastify';

// Pages carry their own policy: nothing but this origin, no inline script, never framed, no referrer
// (signing links carry their token in the path). The reference at /docs runs Redoc, which injects its
// styles inline (styled-components), embeds its icon font as a data: URL and draws a few icons from
// data: SVGs in its stylesheet; that page alone gets those allowances, still with no request leaving
// the origin. Found by removing each allowance in Chromium: without any one of them the console shows
// a CSP violation (or, for data: images, the bundle's CSS refers to them); Redoc's search needs no worker.

const COMMON = "base-uri 'none'; frame-ancestors 'none'";

export const PAGE_CSP = `default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; ${COMMON}`;

export const DOCS_CSP = `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src data:; connect-src 'self'; form-action 'none'; ${COMMON}`;

const SECURITY_HEADERS = {
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;

/** The headers every page-side response gets (pages, their assets and their error pages). */
export function setSecurityHeaders(reply: FastifyReply, csp?: string): FastifyReply {
  reply.headers(SECURITY_HEADERS);
  if (csp) reply.header('Content-Security-Policy', csp);
  return reply;
}
