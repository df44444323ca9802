import { AppError } from '../errors.js';

/** Stripe's bound: a key is 1–255 characters. */
export const MAX_KEY_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The one rule for an `Idempotency-Key` value: 1–255 printable ASCII characters (a UUID, a hash, an
 * order number). Anything else is refused rather than truncated or normalised, so two different keys
 * can never be taken for one.
 */
export function checkIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw new AppError('parameter_invalid', 'Send one Idempotency-Key header, not several.', 'Idempotency-Key');
  if (value.length === 0 || value.length > MAX_KEY_LENGTH || !PRINTABLE_ASCII.test(value)) {
    throw new AppError('parameter_invalid', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters (a UUID works well); this one is ${value.length === 0 ? 'empty' : value.length > MAX_KEY_LENGTH ? `${value.length} characters long` : 'not printable ASCII'}.`, 'Idempotency-Key');
  }
  return value;
}
