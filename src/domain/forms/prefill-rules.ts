import type { FieldDef, FieldValue } from '../../pdf/field.js';
import { AppError } from '../errors.js';
import { applyFieldLogic } from './field-logic.js';
import { checkFieldValue, isPrefillable, unprefillableProblem } from './value-rules.js';

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
    if (!isPrefillable(field)) throw new AppError('parameter_invalid', `prefill.${key} ${unprefillableProblem(field)}`, `prefill.${key}`);
    values[key] = checkValue(field, raw);
  }
  // Formulas computed from what was prefilled; values of fields hidden by a condition dropped (issue 41).
  return { values: withFieldLogic([...byName.values()], values), unmatched };
}

/** The shared rule (value-rules.js, which the signing page runs too), as the prefill's 400. */
export function checkValue(field: FieldDef, raw: unknown): FieldValue {
  const checked = checkFieldValue(field, raw);
  if (!checked.ok) throw new AppError('parameter_invalid', `prefill.${field.name} ${checked.problem}`, `prefill.${field.name}`);
  return checked.value;
}

/**
 * The values with conditions and formulas applied (field-logic.js): formula fields computed, hidden
 * fields' values dropped. Only keys that were given or computed are kept, so a draft's empty fields stay
 * absent rather than null.
 */
export function withFieldLogic(defs: readonly FieldDef[], values: Readonly<Record<string, FieldValue>>): Record<string, FieldValue> {
  if (!defs.some((d) => d.condition || d.formula)) return { ...values };
  const applied = applyFieldLogic(defs, values).values;
  const out: Record<string, FieldValue> = {};
  for (const [k, v] of Object.entries(applied)) {
    if (Object.hasOwn(values, k) || v !== null) out[k] = v;
  }
  return out;
}
