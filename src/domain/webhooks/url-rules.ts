import { AppError } from '../errors.js';
import type { WebhookServices } from '../context.js';

export const MAX_URL_LENGTH = 2048;

const invalid = (why: string) => new AppError('parameter_invalid', `url ${why}`, 'url');

/**
 * A webhook URL as registered: absolute http(s), no credentials, no fragment, at most 2,048
 * characters, and not an address the sender would refuse (literal IPs in any spelling the URL parser
 * accepts — decimal, octal, hex, IPv4-mapped IPv6 — and names that resolve to one). The sender checks
 * again on every connection: a name can resolve elsewhere later.
 */
export async function checkWebhookUrl(raw: string, webhooks: Pick<WebhookServices, 'sender'>): Promise<string> {
  if (raw.length > MAX_URL_LENGTH) throw invalid(`must be at most ${MAX_URL_LENGTH} characters long.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(`must be an absolute http or https address, such as https://example.com/webhooks; '${raw.slice(0, 100)}' is not.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`must use http or https, not ${url.protocol.slice(0, -1)}.`);
  if (url.username || url.password) throw invalid('must not contain a user name or password; authenticate deliveries by their signature.');
  if (raw.includes('#')) throw invalid('must not contain a fragment (#…); it is never sent to the server.');
  if (!url.hostname) throw invalid('must name a host.');
  const refused = await webhooks.sender.checkHost(url.hostname);
  if (refused) throw invalid(`must not point to a private, loopback, link-local or reserved address: ${refused}.`);
  return url.href;
}
