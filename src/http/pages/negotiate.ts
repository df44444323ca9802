import type { FastifyRequest } from 'fastify';

// Which errors are pages: everything under the page routes, always; the API and the probes, never;
// any other unknown address, when the client asks for HTML first (a browser) — curl and SDKs, which
// do not, keep getting the contract's JSON error.

const API = /^\/(api(\/|$)|healthz$|readyz$|metrics$)/;
const PAGES = /^\/($|docs(\/|$)|sign(\/|$)|dashboard(\/|$)|assets\/)/;

export function answersWithHtml(req: FastifyRequest): boolean {
  const path = req.url.split('?', 1)[0] ?? '/';
  if (API.test(path)) return false;
  if (PAGES.test(path)) return true;
  return /^\s*text\/html\b/i.test(String(req.headers.accept ?? ''));
}
