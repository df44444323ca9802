import type { FieldDef, FieldValue } from '../../pdf/field.js';
import { AppError } from '../errors.js';

// Pure: checks each prefill value against its field's type (CONTRACT.md Part B, "Forms").

const SIGNING_TYPES = new Set(['signature', 'initials', 'date_signed']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ().-]{5,30}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

export interface PrefillResult {
  values: Record<string, FieldValue>;
  /** Keys matching no field, in request order (for X-Service-Prefill-Unmatched). */
  unmatched: string[];
}

export function checkPrefill(fields: { byName: ReadonlyMap<string, FieldDef> }, prefill: Record<string, unknown>): PrefillResult {
  const { byName } = fields;
  const values: Record<string, FieldValue> = {};
  const unmatched: string[] = [];
  for (const [key, raw] of Object.entries(prefill)) {
    const field = byName.get(key);
    if (!field) {
      unmatched.push(key);
      continue;
    }
    values[key] = checkValue(field, raw);
  }
  return { values, unmatched };
}

function invalid(field: FieldDef, message: string): AppError {
  return new AppError('parameter_invalid', `prefill.${field.name} ${message}`, `prefill.${field.name}`);
}

export function checkValue(field: FieldDef, raw: unknown): FieldValue {
  if (raw === null) return null;
  if (SIGNING_TYPES.has(field.type)) throw invalid(field, `is a ${field.type} field, which the signer fills when signing.`);
  switch (field.type) {
    case 'checkbox':
      if (typeof raw !== 'boolean') throw invalid(field, 'must be true or false (a checkbox).');
      return raw;
    case 'number': {
      if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
      if (typeof raw === 'string' && DECIMAL.test(raw.trim())) return Number(raw.trim());
      throw invalid(field, 'must be a number.');
    }
    case 'radio':
    case 'select': {
      const options = field.options ?? [];
      if (typeof raw !== 'string' || !options.includes(raw)) {
        throw invalid(field, `must be one of: ${options.slice(0, 20).map((o) => JSON.stringify(o)).join(', ')}${options.length > 20 ? ', …' : ''}.`);
      }
      return raw;
    }
  }
  if (typeof raw !== 'string') throw invalid(field, `must be a string (a ${field.type} field).`);
  if (field.max_length !== undefined && [...raw].length > field.max_length) throw invalid(field, `is longer than the field's ${field.max_length} characters.`);
  switch (field.type) {
    case 'email':
      if (!EMAIL.test(raw)) throw invalid(field, 'must be an e-mail address.');
      return raw;
    case 'phone':
      if (!PHONE.test(raw.trim()) || raw.replace(/\D/g, '').length < 6) throw invalid(field, 'must be a phone number, e.g. +14155550123.');
      return raw.trim();
    case 'date':
      if (!isCalendarDate(raw)) throw invalid(field, 'must be a date as YYYY-MM-DD.');
      return raw;
    default:
      return raw;
  }
}

export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}
