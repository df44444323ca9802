import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 24 base62 characters carry ~142.9 bits, above the contract's 128-bit floor. */
const SUFFIX_LENGTH = 24;

export const ID_PREFIXES = {
  template: 'tmpl',
  form: 'form',
  webhook: 'wh',
  event: 'evt',
  recipient: 'rcp',
  apiKey: 'key',
  account: 'acct',
  delivery: 'whd',
  job: 'job',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

/** Opaque id `<prefix>_<24 base62>`; rejection sampling keeps every character equally likely. */
export function newId(kind: IdKind): string {
  let out = '';
  while (out.length < SUFFIX_LENGTH) {
    for (const byte of randomBytes(32)) {
      if (byte < 248 && out.length < SUFFIX_LENGTH) out += ALPHABET[byte % 62];
    }
  }
  return `${ID_PREFIXES[kind]}_${out}`;
}

export function isId(kind: IdKind, value: string): boolean {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9A-Za-z]{${SUFFIX_LENGTH}}$`).test(value);
}

/** `req_` + 32 lowercase hex, the contract's Service-Request-Id. */
export function newRequestId(): string {
  return `req_${randomBytes(16).toString('hex')}`;
}
