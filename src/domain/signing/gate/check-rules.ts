import { randomInt, timingSafeEqual } from 'node:crypto';
import type { CheckMethod, CheckWhen } from '../../../db/tables.js';
import { sha256Hex } from '../../../lib/crypto.js';
import type { SigningLinks } from '../../../lib/signing-links.js';
import { AppError } from '../../errors.js';

// The pure rules of signer checks (issue 38): the limits, the shape of `auth` in a send, codes and
// their hashes, the masked destination. No clock and no I/O here.

export const CODE_DIGITS = 6;
export const CODE_TTL_MS = 10 * 60_000;
/** A new code at most once a minute and 5 times an hour. */
export const RESEND_GAP_MS = 60_000;
export const RESEND_PER_HOUR = 5;
/** 5 wrong codes lock the link for 15 minutes. */
export const MAX_TRIES = 5;
export const LOCK_MS = 15 * 60_000;
/**
 * One client address may give at most 20 wrong codes in 15 minutes across an account's links (one
 * link locks after 5; this stops one address from trying link after link).
 */
export const IP_MAX_FAILURES = 20;
export const IP_WINDOW_MS = 15 * 60_000;
/**
 * One client address may ask for at most 20 codes an hour across an account's links (one link is held
 * to 5 an hour; this stops one address from sending codes, and the SMS bill, link after link). Counted
 * in fixed windows stored in the database (code_request_windows), so a restart forgets nothing and two
 * servers count each request once.
 */
export const IP_MAX_CODE_REQUESTS = 20;
export const IP_CODE_WINDOW_MS = 60 * 60_000;

/** The start of the fixed window `nowMs` falls in, as stored. */
export function codeWindowStart(nowMs: number): string {
  return new Date(nowMs - (nowMs % IP_CODE_WINDOW_MS)).toISOString();
}

/** A signer session ends after an hour without a request. */
export const SESSION_IDLE_MS = 60 * 60_000;
/** `when: sign`: the check at Finish is good for this long (the time to press Finish after it). */
export const SIGN_CHECK_FRESH_MS = 10 * 60_000;
export const ACCESS_CODE_MIN = 6;
export const ACCESS_CODE_MAX = 32;

export const CHECK_METHODS: readonly CheckMethod[] = ['email_code', 'sms_code', 'access_code'];
const WHENS: readonly CheckWhen[] = ['open', 'sign'];

/** `auth` as a send gives it (openapi.yaml RecipientAuth). */
export interface CheckInput {
  method: CheckMethod;
  access_code?: string | undefined;
  phone?: string | undefined;
  when?: CheckWhen | undefined;
}

export interface NormalisedCheck {
  method: CheckMethod;
  when: CheckWhen;
  /** E.164, for `sms_code`: `auth.phone`, else the recipient's SMS number. */
  phone: string | null;
  /** The access code as given (hashed before it is stored; never kept). */
  accessCode: string | null;
}

/**
 * Checks a recipient's `auth`; `phone` is the recipient's own E.164 number (sms channel) and
 * `normalisePhone` the send's one phone rule. `param` is the recipient's path (`recipients[0]`).
 */
export function normaliseCheck(a: CheckInput, recipient: { email: string | null; phone: string | null }, param: string, normalisePhone: (raw: string) => string): NormalisedCheck {
  if (!CHECK_METHODS.includes(a.method)) throw new AppError('parameter_invalid', `${param}.auth.method must be one of ${CHECK_METHODS.join(', ')}.`, `${param}.auth.method`);
  const when = a.when ?? 'open';
  if (!WHENS.includes(when)) throw new AppError('parameter_invalid', `${param}.auth.when must be open or sign.`, `${param}.auth.when`);
  if (a.method !== 'access_code' && a.access_code !== undefined) throw new AppError('parameter_invalid', `${param}.auth.access_code is only for the access_code method.`, `${param}.auth.access_code`);
  if (a.method !== 'sms_code' && a.phone !== undefined) throw new AppError('parameter_invalid', `${param}.auth.phone is only for the sms_code method.`, `${param}.auth.phone`);
  if (a.method === 'access_code') {
    const code = a.access_code;
    if (code === undefined) throw new AppError('parameter_missing', `${param}.auth.access_code is required for the access_code method.`, `${param}.auth.access_code`);
    if ([...code].length < ACCESS_CODE_MIN || [...code].length > ACCESS_CODE_MAX) throw new AppError('parameter_invalid', `${param}.auth.access_code must be ${ACCESS_CODE_MIN} to ${ACCESS_CODE_MAX} characters.`, `${param}.auth.access_code`);
    return { method: a.method, when, phone: null, accessCode: code };
  }
  if (a.method === 'sms_code') {
    const phone = a.phone !== undefined ? normalisePhone(a.phone) : recipient.phone;
    if (phone === null) throw new AppError('parameter_missing', `${param}.auth.phone is required for sms_code when the recipient has no phone.`, `${param}.auth.phone`);
    return { method: a.method, when, phone, accessCode: null };
  }
  if (recipient.email === null) throw new AppError('parameter_invalid', `${param}.auth.method email_code needs the recipient's email.`, `${param}.auth.method`);
  return { method: a.method, when, phone: null, accessCode: null };
}

/** A uniformly random 6-digit code (leading zeros kept). */
export function newCheckCode(): string {
  return String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
}

/**
 * What is stored for a one-time code: a hash keyed by the recipient's link token, which is derived
 * under the service key and stored nowhere, so the table alone cannot be searched for the 10^6 codes.
 */
export function checkCodeHash(links: Pick<SigningLinks, 'token'>, recipientId: string, code: string): string {
  return sha256Hex(`${links.token(recipientId)}:check:${code}`);
}

/** Constant-time equality of two hex hashes (a different length is unequal, also without an early exit on content). */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  if (x.length !== y.length || x.length === 0) return timingSafeEqual(x, x) && false;
  return timingSafeEqual(x, y);
}

/** Only digits are a code: spaces and dashes a signer may type are dropped. */
export function cleanCode(raw: string): string {
  return raw.replace(/[\s-]/g, '');
}

/** `ada@example.com` → `a•••@example.com`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${[...email.slice(0, at)][0]}•••${email.slice(at)}`;
}

/** `+14155550123` → `+1•••••0123`: the country code's first digit and the last four. */
export function maskPhone(phone: string): string {
  if (phone.length < 7) return '•••';
  return `${phone.slice(0, 2)}•••••${phone.slice(-4)}`;
}
