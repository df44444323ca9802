import type { FieldDef, FieldValue } from '../../pdf/field.js';
import { AppError } from '../errors.js';
import { checkFieldValue } from './value-rules.js';

export { isCalendarDate } from './value-rules.js';

// Pure: checks each prefill value against its field's type (CONTRACT.md Part B, "Forms").


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

/** The shared rule (value-rules.js, which the signing page runs too), as the prefill's 400. */
export function checkValue(field: FieldDef, raw: unknown): FieldValue {
  const checked = checkFieldValue(field, raw);
  if (!checked.ok) throw new AppError('parameter_invalid', `prefill.${field.name} ${checked.problem}`, `prefill.${field.name}`);
  return checked.value;
}
