import { randomFillSync } from 'node:crypto';

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
  message: 'msg',
  user: 'usr',
  reminder: 'rmd',
  /** An entry of a recipient's check log (issue 38). */
  check: 'chk',
  /** A person's data export or erasure (issue 40). */
  dataSubjectRequest: 'dsr',
  /** An invitation to join an account's dashboard (issue 39). */
  invitation: 'inv',
  /** An entry of an account's activity log (issue 39). */
  activity: 'act',
  /** A bulk send (issue 42, CONTRACT Part E). */
  bulkSend: 'bulk',
  /** A file a signer attached (issue 41). */
  attachment: 'att',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

// CSPRNG bytes are drawn in blocks: one system call per block instead of one per id.
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

/** Opaque id `<prefix>_<24 base62>`; rejection sampling keeps every character equally likely. */
export function newId(kind: IdKind): string {
  let out = '';
  while (out.length < SUFFIX_LENGTH) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return `${ID_PREFIXES[kind]}_${out}`;
}

/**
 * Internal, never-published ids (outbox jobs): time-ordered so that inserts append to the primary-key
 * index instead of dirtying a random page of it, which is what a random id costs on every write.
 * `<prefix>_<8 base62 of ms since epoch><16 random base62>`, same length and alphabet as newId.
 */
export function newOrderedId(kind: IdKind): string {
  let t = Date.now();
  let time = '';
  for (let i = 0; i < 8; i++) {
    time = ALPHABET[t % 62] + time;
    t = Math.floor(t / 62);
  }
  return `${ID_PREFIXES[kind]}_${time}${newId(kind).slice(-16)}`;
}

export function isId(kind: IdKind, value: string): boolean {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9A-Za-z]{${SUFFIX_LENGTH}}$`).test(value);
}

/** `req_` + 32 lowercase hex, the contract's Service-Request-Id. */
export function newRequestId(): string {
  let out = 'req_';
  for (let i = 0; i < 16; i++) out += HEX[randomByte()]!;
  return out;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
