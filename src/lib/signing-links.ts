import { createHmac } from 'node:crypto';
import { sha256Hex } from './crypto.js';

/**
 * Signing links: `BASE_URL/sign/<token>`, the token an HMAC of the recipient's id under a service key
 * (256 bits). The recipient row keeps only the token's SHA-256, which is how a link finds its
 * recipient, and the link is derived again whenever a form is shown (events and webhooks included), so
 * no table needs it as a column. The one place it is written out is the message sent to the recipient
 * (`messages`, kept as sent: the dev outbox shows it). Rotating the key invalidates every link.
 *
 * A recipient corrected or reassigned (issue 38) gets a new link without a new id: the row's
 * `link_generation` goes up and is mixed into the HMAC. Generation 0 is the original derivation, so
 * every link sent before generations existed is still the same token.
 */
export interface SigningLinks {
  url(recipientId: string, generation?: number): string;
  token(recipientId: string, generation?: number): string;
  /** What is stored and looked up for a token. */
  tokenHash(token: string): string;
}

/** A recipient's live link: its id and the generation its row names (absent in old event snapshots: 0). */
export interface LinkOwner {
  readonly id: string;
  readonly link_generation?: number | null | undefined;
}

/** The URL of `r`'s live link. */
export function linkUrlOf(links: SigningLinks, r: LinkOwner): string {
  return links.url(r.id, r.link_generation ?? 0);
}

export function createSigningLinks(opts: { baseUrl: string; key: string }): SigningLinks {
  const key = Buffer.from(opts.key, 'base64url');
  if (key.length < 32) throw new Error('The signing-link key must hold at least 32 bytes');
  const token = (recipientId: string, generation = 0) => createHmac('sha256', key).update(generation === 0 ? `sign:${recipientId}` : `sign:${recipientId}:${generation}`).digest('base64url');
  return {
    token,
    url: (recipientId, generation) => `${opts.baseUrl}/sign/${token(recipientId, generation)}`,
    tokenHash: (t) => sha256Hex(t),
  };
}
