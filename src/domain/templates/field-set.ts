import type { FieldDef, FieldValue } from '../../pdf/field.js';

/**
 * A form's field definitions, parsed once and kept with their JSON: a form built from a template
 * shares the template's immutable set, so creating or reading a form never parses the fields again.
 */
export interface FieldSet {
  readonly defs: readonly FieldDef[];
  readonly byName: ReadonlyMap<string, FieldDef>;
  /** The definitions as stored (a JSON array). */
  readonly json: string;
  /** Per field, its JSON object without the closing brace, ready to take `"value":…`. */
  readonly openObjects: readonly string[];
}

export function fieldSet(json: string): FieldSet {
  const defs = JSON.parse(json) as FieldDef[];
  return {
    defs,
    byName: new Map(defs.map((d) => [d.name, d])),
    json,
    openObjects: defs.map((d) => JSON.stringify(d).slice(0, -1)),
  };
}

/** Field values serialised once: each value's JSON (for the Form object) and the object's (for the row). */
export interface EncodedValues {
  readonly json: string;
  readonly byName: ReadonlyMap<string, string>;
}

export function encodeValues(values: Readonly<Record<string, FieldValue>>): EncodedValues {
  const byName = new Map<string, string>();
  let json = '';
  for (const name in values) {
    const value = JSON.stringify(values[name]);
    byName.set(name, value);
    json += `${json === '' ? '{' : ','}${JSON.stringify(name)}:${value}`;
  }
  return { json: json === '' ? '{}' : `${json}}`, byName };
}

/** The contract's `fields` array of a Form (each Field with its `value`), as JSON text. */
export function fieldsWithValuesJson(set: FieldSet, values: EncodedValues): string {
  let out = '[';
  for (let i = 0; i < set.defs.length; i++) {
    out += `${i === 0 ? '' : ','}${set.openObjects[i]!},"value":${values.byName.get(set.defs[i]!.name) ?? 'null'}}`;
  }
  return `${out}]`;
}
