import type { FastifyRequest, FastifyServerOptions } from 'fastify';

// Tokens in paths are credentials — a signing link's, a presigned file address's — and must never
// reach a log. Each such address keeps its shape with the token replaced, so a log line still says
// which page or file was asked for.

const CREDENTIAL_PATH = /^\/(sign|api\/v1\/files\/pdf)\/[^/?#]*/;

export function redactSigningUrl(url: string): string {
  return url.replace(CREDENTIAL_PATH, '/$1/[token]');
}

/** Fastify's default request serializer, with the signing token left out of `url`. */
export function requestLogFields(req: FastifyRequest): Record<string, unknown> {
  return { method: req.method, url: redactSigningUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

/** The server's logger options with request lines redacted; no caller's serializer can put the token back. */
export function withRedactedRequests(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === undefined || logger === false) return false;
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { ...base.serializers, req: requestLogFields } };
}
