// What a submitted value means for a checkbox, shared by AcroForm checkboxes and drawn check marks.
import type { FieldValue } from '../field.js';

const FALSE_WORDS = new Set(['', 'false', 'no', 'off', '0']);

export function isChecked(value: FieldValue): boolean {
  if (typeof value === 'string') return !FALSE_WORDS.has(value.trim().toLowerCase());
  return Boolean(value);
}
