import { createHmac } from 'node:crypto';
import { sha256Hex } from './crypto.js';

/**
 * Signing links: `BASE_URL/sign/<token>`, the token an HMAC of the recipient's id under a service key
 * (256 bits). The recipient row keeps only the token's SHA-256, which is how a link finds its
 * recipient, and the link is derived again whenever a form is shown (events and webhooks included), so
 * no table needs it as a column. The one place it is written out is the message sent to the recipient
 * (`messages`, kept as sent: the dev outbox shows it). Rotating the key invalidates every link.
 */
export interface SigningLinks {
  url(recipientId: string): string;
  token(recipientId: string): string;
  /** What is stored and looked up for a token. */
  tokenHash(token: string): string;
}

export function createSigningLinks(opts: { baseUrl: string; key: string }): SigningLinks {
  const key = Buffer.from(opts.key, 'base64url');
  if (key.length < 32) throw new Error('The signing-link key must hold at least 32 bytes');
  const token = (recipientId: string) => createHmac('sha256', key).update(`sign:${recipientId}`).digest('base64url');
  return {
    token,
    url: (recipientId) => `${opts.baseUrl}/sign/${token(recipientId)}`,
    tokenHash: (t) => sha256Hex(t),
  };
}
