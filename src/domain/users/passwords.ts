import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Passwords are hashed with scrypt (node:crypto, on libuv's thread pool, so a hash never blocks the
// event loop) and compared in constant time. The parameters travel with the hash, so they can be
// raised later without invalidating stored passwords.

// N=2^17, r=8, p=1: OWASP's scrypt recommendation. Hashes made with earlier parameters (N=2^14) keep
// verifying with the parameters stored in them.
export const SCRYPT_PARAMS = { N: 131072, r: 8, p: 1 } as const;

/**
 * scrypt's cost for new hashes. Production always uses SCRYPT_PARAMS: nothing in the configuration
 * lowers it; only the tests pass a cheaper one (DepsOptions.passwordCost), to spend their CPU on what
 * they test rather than on hashing (production-strength hashing cost the dashboard tests ~100 s).
 */
export interface ScryptCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}
const KEY_LENGTH = 32;
// scrypt needs 128·N·r bytes (128 MiB at N=2^17, r=8); the default cap is 32 MiB, so raise it with
// room to spare. A stored hash asking for more than this is treated as malformed, not computed.
const MAX_MEM = 256 * 1024 * 1024;

function derive(password: string, salt: Buffer, opts: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, length, { ...opts, maxmem: MAX_MEM }, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string, cost: ScryptCost = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, KEY_LENGTH);
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** True when the password matches the stored hash; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (!Number.isInteger(N) || !Number.isInteger(r) || !Number.isInteger(p) || expected.length === 0) return false;
  if (N < 2 || (N & (N - 1)) !== 0 || r < 1 || p < 1 || 128 * r * (N + p) > MAX_MEM) return false;
  const actual = await derive(password, salt, { N, r, p }, expected.length);
  return timingSafeEqual(actual, expected);
}

const dummies = new Map<string, Promise<string>>();

/**
 * Costs what a real check costs, for sign-ins naming no user (or a user without a password), so the
 * answer's timing does not tell which e-mail addresses have accounts.
 */
export async function burnPasswordCheck(password: string, cost: ScryptCost = SCRYPT_PARAMS): Promise<void> {
  const key = `${cost.N} ${cost.r} ${cost.p}`;
  let dummy = dummies.get(key);
  if (!dummy) dummies.set(key, (dummy = hashPassword(randomBytes(16).toString('hex'), cost)));
  await verifyPassword(password, await dummy);
}
