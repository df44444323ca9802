import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './generated/api.js';

export type Event = components['schemas']['Event'];

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyOptions {
  /** How far `t` may be from now, either way (default 300 s, the contract's). */
  readonly toleranceSeconds?: number;
  /** The current time (default: the system clock). */
  readonly now?: Date;
}

/**
 * Checks a delivery's `Service-Signature` over the raw body bytes and returns the typed Event.
 * `secret` is the webhook's `signing_secret` (the whole `whsec_…` string), or several during a
 * rotation. The header may carry several `v1=` signatures (any one matching is enough); parts of other
 * schemes are ignored; spaces around parts are allowed. Throws `WebhookVerificationError` when no
 * signature matches or `t` is more than `toleranceSeconds` away from now, in the past or the future.
 * Pass the body exactly as received: parsing and re-serialising JSON changes the bytes.
 */
export function verifyWebhook(rawBody: string | Uint8Array, signatureHeader: string | null | undefined, secret: string | readonly string[], options: VerifyOptions = {}): Event {
  const tolerance = options.toleranceSeconds ?? 300;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const { t, signatures } = parseHeader(signatureHeader);
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new WebhookVerificationError('No signing secret was given.');
  let matched = false;
  for (const s of secrets) {
    const expected = createHmac('sha256', s).update(`${t}.`).update(body).digest();
    // Every comparison runs, matched or not, so the time taken does not tell which part matched.
    for (const candidate of signatures) matched = timingSafeEqual(expected, candidate) || matched;
  }
  if (!matched) throw new WebhookVerificationError('No signature in Service-Signature matches the body and the signing secret.');
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - t) > tolerance) {
    throw new WebhookVerificationError(`The signature's timestamp is ${Math.abs(nowSeconds - t)} s ${t < nowSeconds ? 'old' : 'in the future'}, beyond the ${tolerance} s tolerance.`);
  }
  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('The body is not JSON.');
  }
  return event as Event;
}

function parseHeader(header: string | null | undefined): { t: number; signatures: Buffer[] } {
  if (!header) throw new WebhookVerificationError('The Service-Signature header is missing.');
  let t: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || t !== undefined) throw new WebhookVerificationError('Service-Signature must carry exactly one t=<unix seconds>.');
      t = Number(value);
    } else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) {
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (t === undefined) throw new WebhookVerificationError('Service-Signature has no t=<unix seconds>.');
  if (signatures.length === 0) throw new WebhookVerificationError('Service-Signature has no v1= signature.');
  return { t, signatures };
}
