import type { Field, FieldType } from '../api';

// The builder's field model: the contract's Field plus a key for React and selection.

export interface EditField extends Field {
  key: string;
}

export const FIELD_TYPES: Array<{ type: FieldType; label: string; icon: string }> = [
  { type: 'text', label: 'Text', icon: 'T' },
  { type: 'number', label: 'Number', icon: '#' },
  { type: 'date', label: 'Date', icon: '31' },
  { type: 'email', label: 'E-mail', icon: '@' },
  { type: 'phone', label: 'Phone', icon: '☎' },
  { type: 'checkbox', label: 'Checkbox', icon: '☑' },
  { type: 'radio', label: 'Radio', icon: '◉' },
  { type: 'select', label: 'Select', icon: '▾' },
  { type: 'signature', label: 'Signature', icon: '✍' },
  { type: 'initials', label: 'Initials', icon: 'AB' },
  { type: 'date_signed', label: 'Date signed', icon: '✓' },
  { type: 'attachment', label: 'Attachment', icon: '📎' },
];

export const TYPE_LABEL = Object.fromEntries(FIELD_TYPES.map((t) => [t.type, t.label])) as Record<FieldType, string>;

/** Default sizes in PDF points: what a person would draw for each kind of field. */
const SIZES: Record<FieldType, [number, number]> = {
  text: [160, 20], number: [80, 20], date: [90, 20], email: [160, 20], phone: [120, 20], checkbox: [14, 14], radio: [14, 14],
  select: [120, 20], signature: [170, 42], initials: [60, 30], date_signed: [90, 20], attachment: [200, 40],
};

export const CHOICE_TYPES: FieldType[] = ['radio', 'select'];
export const TEXT_TYPES: FieldType[] = ['text', 'number', 'email', 'phone'];
export const MIN_SIZE = 6;

/** A colour per signer slot, readable on white and distinct from one another. */
export const SIGNER_COLOURS = ['#3b4fd8', '#c2410c', '#047857', '#be185d', '#6d28d9', '#0e7490'];
export const signerColour = (signer: number) => SIGNER_COLOURS[(signer - 1) % SIGNER_COLOURS.length]!;

let counter = 0;
export const newKey = () => `k${Date.now().toString(36)}${(counter++).toString(36)}`;

export function withKeys(fields: Field[]): EditField[] {
  return fields.map((f) => ({ ...f, key: newKey() }));
}

/** What is saved: the contract's Field, without the builder's key or empty optional parts. */
export function toFields(fields: EditField[]): Field[] {
  return fields.map(({ key: _key, ...f }) => {
    const out: Field = { ...f };
    if (!CHOICE_TYPES.includes(out.type)) delete out.options;
    if (out.label !== undefined && out.label.trim() === '') delete out.label;
    if (out.max_length === undefined || out.max_length === null) delete out.max_length;
    // Conditions, formulas and attachment settings (issue 41): absent unless set, and only where they apply.
    if (!out.condition) delete out.condition;
    if (out.type !== 'number' || !out.formula?.trim()) delete out.formula;
    if (out.type !== 'attachment') {
      delete out.accept;
      delete out.max_files;
    }
    return out;
  });
}

export function uniqueName(fields: readonly Field[], type: FieldType): string {
  const taken = new Set(fields.map((f) => f.name));
  for (let n = 1; ; n++) {
    const name = `${type}_${n}`;
    if (!taken.has(name)) return name;
  }
}

export function newField(fields: readonly Field[], type: FieldType, page: number, at: { x: number; y: number; width?: number; height?: number }, pageSize: { width: number; height: number }, signer = 1): EditField {
  const [w, h] = SIZES[type];
  const width = at.width ?? w;
  const height = at.height ?? h;
  const f: EditField = {
    key: newKey(),
    name: uniqueName(fields, type),
    type,
    required: type === 'signature',
    signer,
    page,
    ...clampRect({ x: at.x, y: at.y, width, height }, pageSize),
  };
  if (CHOICE_TYPES.includes(type)) f.options = ['Option 1', 'Option 2'];
  return f;
}

export function clampRect(r: { x: number; y: number; width: number; height: number }, page: { width: number; height: number }) {
  const width = Math.min(Math.max(r.width, MIN_SIZE), page.width);
  const height = Math.min(Math.max(r.height, MIN_SIZE), page.height);
  const x = Math.min(Math.max(r.x, 0), page.width - width);
  const y = Math.min(Math.max(r.y, 0), page.height - height);
  const round = (v: number) => Math.round(v * 100) / 100;
  return { x: round(x), y: round(y), width: round(width), height: round(height) };
}

/**
 * Keys of the fields whose label (the name when there is none) another field on the same page also
 * shows: a signer cannot tell such fields apart ("Last name" twice), so the builder flags them.
 */
export function duplicateLabelKeys(fields: readonly EditField[]): Set<string> {
  const byLabel = new Map<string, string[]>();
  for (const f of fields) {
    const shown = (f.label?.trim() || f.name).toLocaleLowerCase().replace(/[\s.:]+/g, ' ').trim();
    const k = `${f.page}\u0000${shown}`;
    byLabel.set(k, [...(byLabel.get(k) ?? []), f.key]);
  }
  return new Set([...byLabel.values()].filter((keys) => keys.length > 1).flat());
}
