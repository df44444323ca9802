import { createHmac } from 'node:crypto';

/**
 * The `Service-Signature` value: `t=<unix seconds>,v1=<hex HMAC-SHA256>` with one `v1` per secret
 * (two during a rotation's overlap), each keyed with the whole secret string as UTF-8 over
 * `"<t>.<body bytes>"`. Stripe's verifier accepts the header when any v1 matches.
 */
export function signatureHeader(body: Buffer, secrets: readonly string[], t: number): string {
  const prefix = Buffer.from(`${t}.`);
  const parts = secrets.map((secret) => `v1=${createHmac('sha256', secret).update(prefix).update(body).digest('hex')}`);
  return `t=${t},${parts.join(',')}`;
}
