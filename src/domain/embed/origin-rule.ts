import { AppError } from '../errors.js';

// What an allowed embedding origin may be: `scheme://host[:port]`, nothing more (no path, query,
// fragment or credentials), https — or http for a page on this machine (localhost, 127.0.0.1, [::1])
// while it is being built. Stored in its canonical spelling (lower case, no default port), which is
// exactly what a browser sends as an Origin and compares in frame-ancestors.

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export const MAX_EMBED_ORIGINS = 20;

export function canonicalOrigin(input: string, param = 'origin'): string {
  const refuse = (why: string) => new AppError('parameter_invalid', `origin must be scheme://host[:port] (https, or http on localhost or 127.0.0.1): ${why}.`, param);
  const text = input.trim();
  // A CSP source list is split at spaces and ends at ';' or ','; none of them belongs in an origin.
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^\s/?#;,'"*]+$/i.test(text)) throw refuse('write it as https://app.example.com, with no path, wildcard or spaces');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('it is not a valid address');
  }
  if (url.username || url.password) throw refuse('it must not carry a user name or password');
  if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) throw refuse('http is allowed only for localhost and 127.0.0.1; use https');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse(`${url.protocol.slice(0, -1)} is not a web page's scheme`);
  return url.origin;
}
