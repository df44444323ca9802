import type * as LibPhoneNumber from 'libphonenumber-js';
import type { Channel, RecipientRole, RecipientRow } from '../../db/tables.js';
import type { FieldDef } from '../../pdf/field.js';
import { DEFAULT_ROLE, isRecipientRole, RECIPIENT_ROLES, signsDocument } from './recipient-roles.js';
import { MAX_MESSAGE_CHARS } from './compose-message.js';
import { canonicalLocaleTag } from '../../lib/i18n/index.js';
import { loadOnFirstUse } from '../../lib/load-on-first-use.js';
import { AppError } from '../errors.js';
import { isEmailAddress, isPhoneNumberText } from '../forms/value-rules.js';
import { normaliseCheck, type CheckInput, type NormalisedCheck } from '../signing/gate/check-rules.js';

// Its metadata takes tens of milliseconds to load; needed only when a form is sent to a phone.
const phoneNumbers = loadOnFirstUse<typeof LibPhoneNumber>('libphonenumber-js');

// Pure rules of sending (CONTRACT.md Part B, "Forms"); unit-tested without a database.

export const MAX_RECIPIENTS_PER_FORM = 100;

export interface RecipientInput {
  email?: string | undefined;
  phone?: string | undefined;
  channel: Channel;
  /** Optional (CONTRACT.md Part D); when given, not blank. */
  name?: string | undefined;
  signer?: number | undefined;
  /** BCP 47: the language of their signing page and messages (CONTRACT.md Part D). */
  locale?: string | undefined;
  /** The check they must pass before the document opens (issue 38). */
  auth?: CheckInput | undefined;
  /** What their signature means (issue 38): "Approved", "Reviewed"; at most 80 characters, one line. */
  meaning?: string | undefined;
  /** signer (default) | approver | cc | viewer (issue 42). */
  role?: string | undefined;
  /** Their own message, in place of the send's (issue 42). */
  message?: string | undefined;
}

export interface NormalisedRecipient {
  /** Trimmed; null when none was given (pages then show the address: display-name.ts). */
  name: string | null;
  channel: Channel;
  email: string | null;
  /** E.164. */
  phone: string | null;
  /** What "the same recipient" compares: the lower-cased e-mail or the E.164 number. */
  addressKey: string;
  signer: number | undefined;
  /** Canonical BCP 47 ("pt-br" → "pt-BR"); null when none was given. */
  locale: string | null;
  /** The check asked of them; null when none. */
  check: NormalisedCheck | null;
  /** What their signature means, trimmed; null when none. */
  meaning: string | null;
  role: RecipientRole;
  /** Their own message (issue 42), checked; null: the send's, if any. */
  message: string | null;
}

/** The one e-mail rule (value-rules.js): a recipient's address, the account's notify_email and e-mail fields pass the same test. */
export { isEmailAddress };

function invalid(i: number, field: string, message: string): AppError {
  return new AppError('parameter_invalid', message, `recipients[${i}]${field ? `.${field}` : ''}`);
}

/**
 * Checks and normalises the recipients of one call. Phone numbers must be international (a `+` and
 * the country code): a national number is ambiguous without a country, and guessing one would text a
 * stranger. Duplicates inside the call are refused here; against earlier sends, `findAlreadySent`.
 */
export function normaliseRecipients(input: readonly RecipientInput[]): NormalisedRecipient[] {
  const seen = new Map<string, number>();
  return input.map((r, i) => {
    const name = r.name === undefined ? null : r.name.trim();
    if (name === '') throw invalid(i, 'name', `recipients[${i}].name must not be blank; leave it out to have none.`);
    let email: string | null = null;
    let phone: string | null = null;
    if (r.email !== undefined) {
      email = r.email.trim();
      if (!isEmailAddress(email)) throw invalid(i, 'email', `recipients[${i}].email must be an e-mail address.`);
    }
    if (r.phone !== undefined) phone = normalisePhone(r.phone, i);
    if (r.channel === 'email' && email === null) throw new AppError('parameter_missing', `recipients[${i}].email is required for the email channel.`, `recipients[${i}].email`);
    if (r.channel === 'sms' && phone === null) throw new AppError('parameter_missing', `recipients[${i}].phone is required for the sms channel.`, `recipients[${i}].phone`);
    const addressKey = r.channel === 'email' ? email!.toLowerCase() : phone!;
    const key = `${r.channel}:${addressKey}`;
    const first = seen.get(key);
    if (first !== undefined) throw invalid(i, '', `recipients[${i}] is the same recipient as recipients[${first}] (${r.channel} ${addressKey}).`);
    seen.set(key, i);
    const check = r.auth === undefined ? null : normaliseCheck(r.auth, { email, phone: r.channel === 'sms' ? phone : null }, `recipients[${i}]`, (raw) => normalisePhone(raw, i, 'auth.phone'));
    const role = r.role ?? DEFAULT_ROLE;
    if (!isRecipientRole(role)) throw invalid(i, 'role', `recipients[${i}].role must be one of ${RECIPIENT_ROLES.join(', ')}.`);
    return {
      name, channel: r.channel, email, phone, addressKey, signer: r.signer, locale: normaliseLocale(r.locale, i), check,
      meaning: normaliseMeaning(r.meaning, `recipients[${i}].meaning`), role, message: normaliseMessage(r.message, `recipients[${i}].message`),
    };
  });
}

/**
 * A sender's message (issue 42): at most 1,000 characters, line breaks kept (other control characters
 * refused), not blank. Escaped wherever it is shown (e-mail HTML, the signing page).
 */
export function normaliseMessage(raw: string | undefined, param: string): string | null {
  if (raw === undefined) return null;
  if (typeof raw !== 'string') throw new AppError('parameter_invalid', `${param} must be a string.`, param);
  const message = raw.replace(/\r\n?/g, '\n').trim();
  if (message === '') throw new AppError('parameter_invalid', `${param} must not be blank; leave it out to have none.`, param);
  if (/[\u0000-\u0009\u000b-\u001f\u007f]/.test(message)) throw new AppError('parameter_invalid', `${param} must be plain text (line breaks are kept; tabs and other control characters are not).`, param);
  if ([...message].length > MAX_MESSAGE_CHARS) throw new AppError('parameter_invalid', `${param} must be at most ${MAX_MESSAGE_CHARS} characters; it has ${[...message].length}.`, param);
  return message;
}

/** The invitation's own subject line (issue 42): one line of at most 200 characters. */
export function normaliseSubject(raw: string | undefined, param: string): string | null {
  if (raw === undefined) return null;
  const subject = typeof raw === 'string' ? raw.trim() : '';
  if (subject === '') throw new AppError('parameter_invalid', `${param} must not be blank; leave it out to have the default one.`, param);
  if (/[\u0000-\u001f\u007f]/.test(subject)) throw new AppError('parameter_invalid', `${param} must be one line of plain text.`, param);
  if ([...subject].length > 200) throw new AppError('parameter_invalid', `${param} must be at most 200 characters.`, param);
  return subject;
}

/**
 * Only a signer fills fields (issue 42): an approver, cc or viewer whose slot has fields is refused,
 * naming the slot's fields so the sender can give them another slot or make them a signer.
 */
export function refuseFieldsOfNonSigners(defs: readonly Pick<FieldDef, 'name' | 'signer'>[], incoming: readonly NormalisedRecipient[], slots: readonly number[]): void {
  incoming.forEach((r, i) => {
    if (signsDocument(r.role)) return;
    const theirs = defs.filter((f) => f.signer === slots[i]).map((f) => f.name);
    if (theirs.length === 0) return;
    throw invalid(i, 'role', `recipients[${i}] is a${r.role === 'approver' ? 'n' : ''} ${r.role}, but signer slot ${slots[i]} has fields (${theirs.slice(0, 5).join(', ')}${theirs.length > 5 ? ', …' : ''}); only a signer fills fields. Give them a slot without fields with recipients[${i}].signer, or make them a signer.`);
  });
}

export const MAX_MEANING = 80;

/** A signature's meaning: one line of at most 80 characters, not blank (`param` names it in a refusal). */
export function normaliseMeaning(raw: string | undefined, param: string): string | null {
  if (raw === undefined) return null;
  if (typeof raw !== 'string') throw new AppError('parameter_invalid', `${param} must be a string.`, param);
  const meaning = raw.trim().replace(/\s+/g, ' ');
  if (meaning === '') throw new AppError('parameter_invalid', `${param} must not be blank; leave it out to have none.`, param);
  if (/[\u0000-\u001f\u007f]/.test(meaning)) throw new AppError('parameter_invalid', `${param} must be plain text on one line.`, param);
  if ([...meaning].length > MAX_MEANING) throw new AppError('parameter_invalid', `${param} must be at most ${MAX_MEANING} characters.`, param);
  return meaning;
}

/**
 * Any well-formed BCP 47 tag is taken, kept in its canonical form: a language without a catalogue is
 * not an error of the sender's, the signer then reads their browser's language (or the account's).
 */
function normaliseLocale(raw: string | undefined, i: number): string | null {
  if (raw === undefined) return null;
  const tag = canonicalLocaleTag(raw.trim());
  if (tag === null) throw invalid(i, 'locale', `recipients[${i}].locale must be a BCP 47 language tag such as "de" or "pt-BR".`);
  return tag;
}

function normalisePhone(raw: string, i: number, field = 'phone'): string {
  // The one phone rule (value-rules.js) first: a CR/LF or any other character a number never has is
  // refused, never cut away by the parser below (which reads '+1…\r\nX-Injected: yes' as the number).
  const trimmed = raw.trim();
  // A national number such as '(415) 555-0123' is refused by the rule (it starts with no digit or +),
  // but what it lacks is the country code: say that, not which characters a number may have.
  const national = typeof raw === 'string' && /^[0-9 ().-]+$/.test(trimmed) && trimmed.replace(/\D/g, '').length >= 6;
  if (!isPhoneNumberText(raw) && !national) throw invalid(i, field, `recipients[${i}].${field} must be a phone number of digits, spaces and + ( ) . -, e.g. +14155550123.`);
  if (!trimmed.startsWith('+')) {
    throw invalid(i, field, `recipients[${i}].${field} must be an international number starting with + and the country code, e.g. +14155550123.`);
  }
  const lib = phoneNumbers();
  const parsed = lib.parsePhoneNumberFromString(trimmed);
  if (!parsed || !parsed.isPossible()) throw invalid(i, field, `recipients[${i}].${field} ${phoneProblem(lib, trimmed)}`);
  return parsed.number;
}

/**
 * Why an international-looking number is refused, in words that point at the usual mistake: the
 * country code left out after the `+` ('+4155550123' reads as Switzerland's +41 and is too short).
 */
function phoneProblem(lib: typeof LibPhoneNumber, number: string): string {
  const example = 'e.g. +1 415 555 0123 or +44 20 7946 0018';
  if (lib.validatePhoneNumberLength(number) === 'INVALID_COUNTRY') return `'${number}' has no country code after the +: write + and the country code before the number, ${example}.`;
  const code = lib.parsePhoneNumberFromString(number)?.countryCallingCode ?? /^\+(\d{1,3})/.exec(number.replace(/[^+\d]/g, ''))?.[1];
  return `'${number}' is not a possible phone number${code ? ` for country code +${code}` : ''}: is the country code missing after the +? Write + and the country code before the number, ${example}.`;
}

/** The index of the first recipient of the call that was already sent the form, if any. */
export function findAlreadySent(existing: readonly Pick<RecipientRow, 'channel' | 'address_key'>[], incoming: readonly NormalisedRecipient[]): number | undefined {
  const sent = new Set(existing.map((r) => `${r.channel}:${r.address_key}`));
  const i = incoming.findIndex((r) => sent.has(`${r.channel}:${r.addressKey}`));
  return i === -1 ? undefined : i;
}

/**
 * Signer slots: an explicit `signer` must be free; the others take the lowest free slots in the order
 * given. Slots beyond the template's signer count are allowed (they sign on an added page).
 */
export function assignSigners(taken: readonly number[], incoming: readonly NormalisedRecipient[]): number[] {
  const used = new Set(taken);
  incoming.forEach((r, i) => {
    if (r.signer === undefined) return;
    // A form has at most 100 recipients, so no slot past 100 can ever be filled (openapi.yaml says so too).
    if (!Number.isInteger(r.signer) || r.signer < 1 || r.signer > MAX_RECIPIENTS_PER_FORM) {
      throw invalid(i, 'signer', `recipients[${i}].signer must be a whole number from 1 to ${MAX_RECIPIENTS_PER_FORM}.`);
    }
    if (used.has(r.signer)) throw invalid(i, 'signer', `recipients[${i}].signer ${r.signer} is already taken by another recipient of this form.`);
    used.add(r.signer);
  });
  let next = 1;
  return incoming.map((r) => {
    if (r.signer !== undefined) return r.signer;
    while (used.has(next)) next++;
    used.add(next);
    return next;
  });
}
