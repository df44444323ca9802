import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { sha256Hex } from '../../lib/crypto.js';
import { AppError } from '../errors.js';

// Two-factor sign-in by TOTP (RFC 6238: HMAC-SHA1, 6 digits, 30-second steps — what every
// authenticator app reads from an otpauth:// QR code) and the recovery codes that stand in for a
// lost phone. The secret is kept as it is (the server must compute codes from it); recovery codes
// are kept as SHA-256 only (80 random bits each: no dictionary to try).

const PERIOD = 30;
const ISSUER = 'Formsign';
export const RECOVERY_CODE_COUNT = 10;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, label = 'user'): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });
}

/** The otpauth:// address an authenticator app reads from the QR code. */
export function totpUri(secret: string, email: string): string {
  return totp(secret, email).toString();
}

/** A code as typed: six digits, spaces allowed (apps show "123 456"). */
export function givenTotpCode(value: unknown, param = 'code'): string {
  if (typeof value !== 'string' || value.trim() === '') throw new AppError('parameter_missing', 'Enter the 6-digit code from your authenticator app.', param);
  const code = value.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(code)) throw new AppError('parameter_invalid', 'A code from your authenticator app has 6 digits.', param);
  return code;
}

/**
 * The time step the code belongs to, if it is the current one or one step either side (a phone's clock
 * a little off, a code typed as it changed); null when it matches none.
 */
export function matchTotp(secret: string, code: string, now: Date): number | null {
  const delta = totp(secret).validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD) + delta;
}

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten new recovery codes as the person sees them (`xxxx-xxxx-xxxx-xxxx`) and their hashes. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    // 16 characters of a 31-letter alphabet (no 0/o, 1/l/i): about 79 bits.
    const chars = [...randomBytes(32)].filter((b) => b < 248).slice(0, 16).map((b) => ALPHABET[b % ALPHABET.length]).join('');
    return chars.padEnd(16, 'a').match(/.{4}/g)!.join('-');
  });
  return { codes, hashes: codes.map(recoveryCodeHash) };
}

/** The hash of a recovery code as typed: case, spaces and dashes do not matter. */
export function recoveryCodeHash(value: string): string {
  return sha256Hex(value.toLowerCase().replace(/[\s-]+/g, ''));
}

export function givenRecoveryCode(value: unknown, param = 'recovery_code'): string {
  if (typeof value !== 'string' || value.trim() === '') throw new AppError('parameter_missing', 'Enter one of your recovery codes.', param);
  if (value.length > 64) throw new AppError('parameter_invalid', 'A recovery code looks like abcd-efgh-jkmn-pqrs.', param);
  return value;
}
