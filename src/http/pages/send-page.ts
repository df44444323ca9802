import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { acceptsEncoding } from '../accept-encoding.js';
import { toHtmlString, type SafeHtml } from './html.js';
import { PAGE_CSP, setSecurityHeaders } from './security-headers.js';

/**
 * Pages at least this long are sent gzipped to a client that accepts it. The signing page of the 1040
 * is 108 KB of HTML (its 143 fields' config), 0.6 s on a slow 4G phone, and gzips to a fraction of it
 * (issue 43 item 4); a short page is not worth the header.
 */
const COMPRESS_FROM = 8 * 1024;

/** Sends a whole HTML document with the page security headers; pages are never cached by proxies. */
export function sendPage(reply: FastifyReply, doc: SafeHtml, opts: { status?: number; csp?: string; framable?: boolean } = {}): FastifyReply {
  setSecurityHeaders(reply, opts.csp ?? PAGE_CSP);
  // A page its CSP lets some origins frame (frame-ancestors) must not say DENY beside it.
  if (opts.framable) reply.removeHeader('X-Frame-Options');
  const body = toHtmlString(doc);
  reply.code(opts.status ?? 200).header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
  if (body.length < COMPRESS_FROM) return reply.send(body);
  // Added to what the route varies by (the signing page: Accept-Language).
  const vary = reply.getHeader('Vary');
  reply.header('Vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  if (acceptsEncoding(reply.request.headers['accept-encoding'], 'gzip')) {
    // A zlib stream compresses on libuv's thread pool, not on the event loop.
    return reply.header('Content-Encoding', 'gzip').send(Readable.from([Buffer.from(body)]).pipe(zlib.createGzip({ level: 6 })));
  }
  return reply.send(body);
}
