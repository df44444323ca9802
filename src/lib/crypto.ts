import { hash, randomBytes } from 'node:crypto';

/** One-shot hashing: no Hash object per call (the API key check runs this on every request). */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
