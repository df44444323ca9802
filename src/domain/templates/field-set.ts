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

/** The contract's `fields` array of a Form (each Field with its `value`), as JSON text. */
export function fieldsWithValuesJson(set: FieldSet, values: Readonly<Record<string, FieldValue>>): string {
  let out = '[';
  for (let i = 0; i < set.defs.length; i++) {
    const value = values[set.defs[i]!.name];
    out += `${i === 0 ? '' : ','}${set.openObjects[i]!},"value":${value === undefined ? 'null' : JSON.stringify(value)}}`;
  }
  return `${out}]`;
}
