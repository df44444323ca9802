import type { FastifyReply } from 'fastify';
import { toHtmlString, type SafeHtml } from './html.js';
import { PAGE_CSP, setSecurityHeaders } from './security-headers.js';

/** Sends a whole HTML document with the page security headers; pages are never cached by proxies. */
export function sendPage(reply: FastifyReply, doc: SafeHtml, opts: { status?: number; csp?: string; framable?: boolean } = {}): FastifyReply {
  setSecurityHeaders(reply, opts.csp ?? PAGE_CSP);
  // A page its CSP lets some origins frame (frame-ancestors) must not say DENY beside it.
  if (opts.framable) reply.removeHeader('X-Frame-Options');
  return reply
    .code(opts.status ?? 200)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(toHtmlString(doc));
}
