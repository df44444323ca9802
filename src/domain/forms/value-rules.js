// The one definition of what a field value may be, shared by the server (prefill, signing) and the
// signing page, which loads this very file as an ES module (served by src/http/pages/sign) to check
// values in the browser before the server checks them again. Plain JavaScript with no imports so
// both can run it as is; its types are in value-rules.d.ts. A problem is a phrase to follow the
// field's name or label: "Monthly rent" + " must be a number."

/** The longest value any field takes (prefill and the signing page alike). */
export const MAX_VALUE_CHARS = 10000;

/**
 * The HTML standard's "valid e-mail address": no quotes, angle brackets, commas or spaces, which a mail
 * library would read as a display name or a second address (one recipient fanning out to several), and
 * which a page could be made to show as markup. The one e-mail rule: recipients and e-mail fields alike.
 */
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const PHONE = /^\+?[0-9][0-9 ().-]{5,30}$/;

/** Whether `s` is an e-mail address (the HTML standard's rule, above), as given: no spaces around it. */
export function isEmailAddress(s) {
  return typeof s === 'string' && EMAIL.test(s);
}

/**
 * Whether `s` reads as a phone number: digits, spaces and + ( ) . - only, at least six digits. Spaces
 * around it are allowed, control characters (a CR/LF) nowhere. The one phone rule: recipients (which
 * then also need the + and a possible number) and phone fields alike.
 */
export function isPhoneNumberText(s) {
  if (typeof s !== 'string' || /[\u0000-\u001f\u007f]/.test(s)) return false;
  const t = s.trim();
  return PHONE.test(t) && t.replace(/\D/g, '').length >= 6;
}
const DECIMAL = /^-?\d+(\.\d+)?$/;
const SIGNING_TYPES = new Set(['signature', 'initials', 'date_signed']);

/**
 * The field types a sender can never prefill: the signing-stage ones, and attachments (only the signer
 * attaches files). The one list: prefill (checkPrefill), the bulk preview and the bulk page's blank CSV.
 */
export const UNPREFILLABLE_TYPES = new Set([...SIGNING_TYPES, 'attachment']);

/** Whether a sender may prefill the field: not one of UNPREFILLABLE_TYPES, nor computed (a formula). */
export function isPrefillable(field) {
  return !field.formula && !UNPREFILLABLE_TYPES.has(field.type);
}

/** Why a sender may not prefill the field (isPrefillable false), as a phrase after `prefill.<name>`. */
export function unprefillableProblem(field) {
  if (field.formula) return 'is computed from other fields (its formula); leave it out.';
  if (field.type === 'attachment') return 'is an attachment field: only the signer attaches files to it.';
  return `is a ${field.type} field, which the signer fills when signing.`;
}

export function isCalendarDate(s) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

const ok = (value) => ({ ok: true, value });
const bad = (problem) => ({ ok: false, problem });

/** Checks one non-null value against its field's type and limits; signing-stage types are refused. */
export function checkFieldValue(field, raw) {
  if (raw === null) return ok(null);
  if (SIGNING_TYPES.has(field.type)) return bad(`is a ${field.type} field, which the signer fills when signing.`);
  switch (field.type) {
    case 'checkbox':
      return typeof raw === 'boolean' ? ok(raw) : bad('must be true or false (a checkbox).');
    case 'number':
      if (typeof raw === 'number' && Number.isFinite(raw)) return ok(raw);
      if (typeof raw === 'string' && DECIMAL.test(raw.trim())) return ok(Number(raw.trim()));
      return bad('must be a number.');
    case 'radio':
    case 'select': {
      const options = field.options ?? [];
      if (typeof raw === 'string' && options.includes(raw)) return ok(raw);
      return bad(`must be one of: ${options.slice(0, 20).map((o) => JSON.stringify(o)).join(', ')}${options.length > 20 ? ', …' : ''}.`);
    }
  }
  if (typeof raw !== 'string') return bad(`must be a string (a ${field.type} field).`);
  const length = [...raw].length;
  if (length > MAX_VALUE_CHARS) return bad(`is longer than ${MAX_VALUE_CHARS.toLocaleString('en-US')} characters.`);
  if (field.max_length !== undefined && field.max_length !== null && length > field.max_length) return bad(`is longer than the field's ${field.max_length} characters.`);
  switch (field.type) {
    case 'email':
      return isEmailAddress(raw) ? ok(raw) : bad('must be an e-mail address.');
    case 'phone':
      return isPhoneNumberText(raw) ? ok(raw.trim()) : bad('must be a phone number, e.g. +14155550123.');
    case 'date':
      return isCalendarDate(raw) ? ok(raw) : bad('must be a date as YYYY-MM-DD.');
    case 'attachment':
      // What the page shows of the files attached (their names); the server takes the files it holds
      // (issue 41), never this text.
      return ok(raw);
    default:
      return ok(raw);
  }
}

/** Why a required field is not done yet, as a phrase after its label. */
export function missingProblem(field) {
  switch (field.type) {
    case 'signature':
      return 'is required: draw or type your signature.';
    case 'initials':
      return 'is required: draw or type your initials.';
    case 'checkbox':
      return 'is required: tick the box.';
    case 'radio':
    case 'select':
      return 'is required: choose an option.';
    case 'attachment':
      return 'is required: attach a file.';
    default:
      return 'is required: fill it in.';
  }
}

/** The words a signer knows a field by: its label (first letter capitalised), else its name. */
export function fieldWords(field) {
  const words = (field.label ?? '').trim() || field.name;
  return words.charAt(0).toUpperCase() + words.slice(1);
}
