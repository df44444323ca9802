import { ATTACHMENT_TYPES, FIELD_TYPES, MAX_ATTACHMENT_FILES, type AttachmentType, type FieldDef, type FieldType } from '../../pdf/field.js';
import { AppError } from '../errors.js';
import { checkCondition, dependencyOrder, parseFormula } from '../forms/field-logic.js';

// Pure checks of field definitions given as JSON (flat PDFs, or edits of detected fields).

const CHOICE_TYPES: readonly FieldType[] = ['radio', 'select'];
const KNOWN_KEYS = new Set(['name', 'type', 'label', 'required', 'signer', 'page', 'x', 'y', 'width', 'height', 'options', 'multiline', 'max_length', 'description', 'condition', 'formula', 'accept', 'max_files']);

function fail(i: number, key: string, message: string, prefix: string): never {
  throw new AppError('parameter_invalid', message, `${prefix}[${i}]${key ? `.${key}` : ''}`);
}

export function parseFieldDefs(input: unknown, pageCount: number, prefix = 'fields'): FieldDef[] {
  if (!Array.isArray(input)) throw new AppError('parameter_invalid', `${prefix} must be a JSON array of field objects.`, prefix);
  if (input.length > 1000) throw new AppError('parameter_invalid', `${prefix} may hold at most 1000 fields.`, prefix);
  const seen = new Set<string>();
  const defs = input.map((raw: unknown, i): FieldDef => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(i, '', `${prefix}[${i}] must be an object.`, prefix);
    const f = raw as Record<string, unknown>;
    for (const k of Object.keys(f)) {
      if (!KNOWN_KEYS.has(k)) throw new AppError('parameter_unknown', `Received unknown parameter '${prefix}[${i}].${k}'.`, `${prefix}[${i}].${k}`);
    }
    const name = f['name'];
    if (typeof name !== 'string' || name.length === 0 || name.length > 200) fail(i, 'name', 'A field name must be a string of 1 to 200 characters.', prefix);
    if (seen.has(name)) fail(i, 'name', `Field name '${name}' is used twice.`, prefix);
    seen.add(name);
    const type = f['type'];
    if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type)) fail(i, 'type', `type must be one of ${FIELD_TYPES.join(', ')}.`, prefix);
    const num = (key: string, min: number, integer: boolean, dflt?: number): number => {
      const v = f[key] ?? dflt;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < min || (integer && !Number.isInteger(v))) {
        fail(i, key, `${key} must be ${integer ? 'a whole number' : 'a number'} of at least ${min}.`, prefix);
      }
      return v;
    };
    const page = num('page', 1, true, 1);
    if (page > pageCount) fail(i, 'page', `page ${page} is beyond the document's ${pageCount} page(s).`, prefix);
    const def: FieldDef = {
      name,
      type: type as FieldType,
      required: f['required'] === undefined ? false : bool(f['required'], i, 'required', prefix),
      signer: num('signer', 1, true, 1),
      page,
      x: num('x', 0, false),
      y: num('y', 0, false),
      width: num('width', 0, false),
      height: num('height', 0, false),
    };
    if (f['label'] !== undefined) {
      if (typeof f['label'] !== 'string' || f['label'].length > 500) fail(i, 'label', 'label must be a string of at most 500 characters.', prefix);
      def.label = f['label'];
    }
    if (CHOICE_TYPES.includes(def.type)) {
      const o = f['options'];
      if (!Array.isArray(o) || o.length === 0 || !o.every((x) => typeof x === 'string')) fail(i, 'options', `A ${def.type} field needs options: a non-empty array of strings.`, prefix);
      def.options = o as string[];
    } else if (f['options'] !== undefined) {
      fail(i, 'options', 'Only radio and select fields take options.', prefix);
    }
    if (f['multiline'] !== undefined) def.multiline = bool(f['multiline'], i, 'multiline', prefix);
    if (f['max_length'] !== undefined) def.max_length = num('max_length', 1, true);
    if (f['description'] !== undefined) {
      if (typeof f['description'] !== 'string' || f['description'].length > 500) fail(i, 'description', 'description must be a string of at most 500 characters.', prefix);
      if (f['description'].trim()) def.description = f['description'];
    }
    if (f['condition'] !== undefined && f['condition'] !== null) {
      const checked = checkCondition(f['condition']);
      if (!checked.ok) fail(i, 'condition', `The condition ${checked.problem}`, prefix);
      def.condition = f['condition'] as FieldDef['condition'];
    }
    if (f['formula'] !== undefined && f['formula'] !== null) {
      if (def.type !== 'number') fail(i, 'formula', 'Only number fields take a formula.', prefix);
      const parsed = parseFormula(f['formula']);
      if (!parsed.ok) fail(i, 'formula', `The formula ${parsed.problem}`, prefix);
      def.formula = f['formula'] as string;
    }
    attachmentKeys(def, f, i, prefix);
    return def;
  });
  checkFieldLogic(defs, prefix);
  return defs;
}

/**
 * Conditions and formulas across the template: each name they read is a field of the template (not the
 * field itself), and no field depends on itself through others. A refusal is 400 `template_invalid`
 * naming the field (issue 41).
 */
export function checkFieldLogic(defs: readonly FieldDef[], prefix = 'fields'): void {
  const index = new Map(defs.map((d, i) => [d.name, i]));
  for (const [i, d] of defs.entries()) {
    const reads = [
      ...(d.condition ? (checkCondition(d.condition) as { refs: string[] }).refs.map((r) => ['condition', r] as const) : []),
      ...(d.formula ? (parseFormula(d.formula) as { refs: string[] }).refs.map((r) => ['formula', r] as const) : []),
    ];
    for (const [key, ref] of reads) {
      const param = `${prefix}[${i}].${key}`;
      if (ref === d.name) throw new AppError('template_invalid', `Field '${d.name}': its ${key} reads the field itself.`, param);
      const j = index.get(ref);
      if (j === undefined) throw new AppError('template_invalid', `Field '${d.name}': its ${key} reads '${ref}', which is not a field of this template.`, param);
      if (key === 'formula' && !['number', 'text', 'select', 'radio'].includes(defs[j]!.type)) {
        throw new AppError('template_invalid', `Field '${d.name}': its formula reads '${ref}', a ${defs[j]!.type} field, which holds no number.`, param);
      }
    }
  }
  const planned = dependencyOrder(defs);
  if (!planned.ok) {
    const first = planned.cycle[0]!;
    throw new AppError('template_invalid', `Field '${first}' depends on itself: ${planned.cycle.join(' → ')}.`, `${prefix}[${index.get(first)}]`);
  }
}

/** An attachment field's `accept` (media types) and `max_files` (1–10); other types take neither (issue 41). */
function attachmentKeys(def: FieldDef, f: Record<string, unknown>, i: number, prefix: string): void {
  const accept = f['accept'];
  const maxFiles = f['max_files'];
  if (def.type !== 'attachment') {
    if (accept !== undefined && accept !== null) fail(i, 'accept', 'Only attachment fields take accept.', prefix);
    if (maxFiles !== undefined && maxFiles !== null) fail(i, 'max_files', 'Only attachment fields take max_files.', prefix);
    return;
  }
  if (accept !== undefined && accept !== null) {
    const known = ATTACHMENT_TYPES as readonly string[];
    if (!Array.isArray(accept) || accept.length === 0 || !accept.every((t) => typeof t === 'string' && known.includes(t)) || new Set(accept).size !== accept.length) {
      fail(i, 'accept', `accept must be a non-empty list of distinct file types among ${ATTACHMENT_TYPES.join(', ')}.`, prefix);
    }
    def.accept = accept as AttachmentType[];
  }
  if (maxFiles !== undefined && maxFiles !== null) {
    if (typeof maxFiles !== 'number' || !Number.isInteger(maxFiles) || maxFiles < 1 || maxFiles > MAX_ATTACHMENT_FILES) {
      fail(i, 'max_files', `max_files must be a whole number from 1 to ${MAX_ATTACHMENT_FILES}.`, prefix);
    }
    def.max_files = maxFiles;
  }
}

function bool(v: unknown, i: number, key: string, prefix: string): boolean {
  if (typeof v !== 'boolean') fail(i, key, `${key} must be true or false.`, prefix);
  return v;
}

/** Signer slots are 1-based and a template has at least one. */
export function signerCount(fields: FieldDef[]): number {
  return fields.reduce((n, f) => Math.max(n, f.signer), 1);
}
