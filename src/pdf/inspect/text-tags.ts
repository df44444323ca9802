// Text tags (issue 41): text in the document such as `{{tenant_sign;type=signature;role=Tenant;required}}`
// becomes a field at the tag's box. The grammar (CONTRACT Part E): the name first, then `;`-separated
// settings — `type` (a field type, default text), `role` (a signer role name or slot number),
// `required` (a flag), `options` (`|`-separated, for radio and select), `w` / `h` (points). A tag that
// cannot be read is reported with its page and text, never skipped in silence.
import { FIELD_TYPES, type FieldDef, type FieldType } from '../field.js';
import type { Box, TextPiece } from './page-text.js';

export interface ParsedTag {
  name: string;
  type: FieldType;
  /** A role name ("Tenant") or a slot number as written ("2"); undefined for slot 1. */
  role?: string;
  required: boolean;
  options?: string[];
  width?: number;
  height?: number;
}

export interface FoundTag {
  page: number;
  text: string;
  /** Where the tag's characters are printed: the field's box. */
  box: Box;
  /** What to paint over: the tag and the blank characters beside it (character positions inside a
   * piece of text are estimated, so the blanks absorb the estimate's error, never a visible letter). */
  cover: Box;
}

/** A line with `{{` or `}}` that no tag accounts for: reported, never skipped in silence. */
export interface UnreadLine { page: number; text: string }

const TAG = /\{\{([^{}]*)\}\}/g;
const MAX_NAME = 200;
const SETTINGS = new Set(['type', 'role', 'required', 'options', 'w', 'h']);
/** The smallest box a signer can use, by type, when the tag's own text is smaller. */
const MIN_SIZE: Partial<Record<FieldType, [number, number]>> = { signature: [120, 30], initials: [40, 24], checkbox: [10, 10] };

/** Reads the inside of one tag; `{problem}` says what is wrong in words for the sender. */
export function parseTextTag(inner: string): ParsedTag | { problem: string } {
  const parts = inner.split(';').map((s) => s.trim());
  const name = parts.shift() ?? '';
  if (!name) return { problem: 'it names no field (the name comes first)' };
  if (name.length > MAX_NAME) return { problem: `its name is longer than ${MAX_NAME} characters` };
  if (name.includes('=')) return { problem: 'it names no field (the name comes first, before any setting)' };
  const tag: ParsedTag = { name, type: 'text', required: false };
  const seen = new Set<string>();
  for (const part of parts) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    const value = eq < 0 ? undefined : part.slice(eq + 1).trim();
    if (!SETTINGS.has(key)) return { problem: `"${key}" is not a setting (use type, role, required, options, w, h)` };
    if (seen.has(key)) return { problem: `"${key}" is given twice` };
    seen.add(key);
    if (key === 'required') {
      if (value !== undefined && !/^(true|yes|1)$/i.test(value)) return { problem: '"required" is a flag: write it alone' };
      tag.required = true;
      continue;
    }
    if (value === undefined || value === '') return { problem: `"${key}" needs a value (${key}=…)` };
    if (key === 'type') {
      if (!(FIELD_TYPES as readonly string[]).includes(value)) return { problem: `"${value}" is not a field type (use ${FIELD_TYPES.join(', ')})` };
      tag.type = value as FieldType;
    } else if (key === 'role') {
      tag.role = value;
    } else if (key === 'options') {
      tag.options = value.split('|').map((o) => o.trim()).filter(Boolean);
    } else {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0 || n > 2000) return { problem: `"${key}" must be a size in points, above 0 and at most 2000` };
      if (key === 'w') tag.width = n;
      else tag.height = n;
    }
  }
  if (tag.type === 'radio' || tag.type === 'select') {
    if (!tag.options?.length) return { problem: `a ${tag.type} field needs options=A|B` };
  } else if (tag.options) {
    return { problem: 'only radio and select fields take options' };
  }
  if (tag.role !== undefined && /^\d+$/.test(tag.role) && Number(tag.role) < 1) return { problem: 'a signer slot number starts at 1' };
  return tag;
}

/** The union of the boxes of some characters of a line: one box per piece they fall in. */
function boxOfChars(chars: ReadonlyArray<{ piece: TextPiece; index: number }>): Box {
  const spans = new Map<TextPiece, [number, number]>();
  for (const c of chars) {
    const span = spans.get(c.piece);
    spans.set(c.piece, span ? [Math.min(span[0], c.index), Math.max(span[1], c.index + 1)] : [c.index, c.index + 1]);
  }
  const boxes = [...spans].map(([piece, [from, to]]) => piece.boxOf(from, to));
  return {
    left: Math.min(...boxes.map((b) => b.left)), right: Math.max(...boxes.map((b) => b.right)),
    top: Math.min(...boxes.map((b) => b.top)), bottom: Math.max(...boxes.map((b) => b.bottom)),
  };
}

/**
 * Every `{{…}}` on the pages, with its page and box (the union of its characters' boxes). A tag may
 * span several pieces of text on one line (PDF writers split words into runs), never two lines.
 */
export function findTextTags(pages: ReadonlyMap<number, readonly TextPiece[]>): { tags: FoundTag[]; unread: UnreadLine[] } {
  const found: FoundTag[] = [];
  const unread: UnreadLine[] = [];
  for (const [page, pieces] of pages) {
    let line: Array<{ piece: TextPiece; index: number }> = [];
    let text = '';
    const flush = () => {
      // Braces left once the tags are taken out: a tag written across lines, or a line whose text the
      // PDF stores in visual order (right-to-left script inside the tag), which cannot be read as written.
      const rest = text.replace(TAG, ' ');
      if (rest.includes('{{') || rest.includes('}}')) unread.push({ page, text: text.trim().slice(0, 80) });
      for (const m of text.matchAll(TAG)) {
        let from = m.index;
        let to = m.index + m[0].length;
        const box = boxOfChars(line.slice(from, to));
        while (from > 0 && /\s/.test(text[from - 1]!)) from -= 1;
        while (to < text.length && /\s/.test(text[to]!)) to += 1;
        found.push({ page, text: m[0], box, cover: boxOfChars(line.slice(from, to)) });
      }
      line = [];
      text = '';
    };
    for (const piece of pieces) {
      for (let i = 0; i < piece.str.length; i++) line.push({ piece, index: i });
      text += piece.str;
      if (piece.eol) flush();
    }
    flush();
  }
  return { tags: found, unread };
}

export interface TaggedFields {
  fields: FieldDef[];
  /** Role names in slot order, for the template's `signers` (slot numbers given as numbers name none). */
  roles: Array<{ slot: number; role: string }>;
  warnings: string[];
}

const labelOf = (name: string): string => {
  const words = name.replace(/[_\-.]+/g, ' ').replace(/\s+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * The fields the tags make, beside `existing` (names already taken, e.g. AcroForm fields): a name met
 * again gets a suffix (`_2`) and a warning; a tag that cannot be read gets a warning with its page and
 * text. Role names take slots in the order they first appear; a number is a slot.
 */
export function fieldsFromTags(tags: readonly FoundTag[], existing: ReadonlySet<string>, unread: readonly UnreadLine[] = []): TaggedFields {
  const fields: FieldDef[] = [];
  const warnings: string[] = unread.map((u) => `Text on page ${u.page} looks like a text tag but could not be read in order ("${u.text}"): `
    + 'write each tag on one line, and keep the text inside the braces left to right (a right-to-left name can be the field\'s label in the builder). No field was made from it.');
  const names = new Set(existing);
  const slots = new Map<string, number>();
  const numbered = new Set<number>();
  for (const t of tags) if (/^\{\{[^;]*;.*role=\s*(\d+)/.test(t.text)) numbered.add(Number(/role=\s*(\d+)/.exec(t.text)![1]));
  const slotOf = (role: string | undefined): number => {
    if (role === undefined) return 1;
    if (/^\d+$/.test(role)) return Number(role);
    const key = role.toLowerCase();
    let slot = slots.get(key);
    if (slot === undefined) {
      slot = 1;
      const taken = new Set([...slots.values(), ...numbered]);
      while (taken.has(slot)) slot += 1;
      slots.set(key, slot);
    }
    return slot;
  };
  const roleNames = new Map<number, string>();
  for (const t of tags) {
    const parsed = parseTextTag(t.text.slice(2, -2));
    const quoted = t.text.length > 80 ? `${t.text.slice(0, 77)}…` : t.text;
    if ('problem' in parsed) {
      warnings.push(`Text tag ${quoted} on page ${t.page} was not read: ${parsed.problem}. It is covered, and no field was made from it.`);
      continue;
    }
    let name = parsed.name;
    if (names.has(name)) {
      let k = 2;
      while (names.has(`${parsed.name}_${k}`)) k += 1;
      name = `${parsed.name}_${k}`;
      warnings.push(`Text tag ${quoted} on page ${t.page} repeats the field name "${parsed.name}": this one is named "${name}".`);
    }
    names.add(name);
    const signer = slotOf(parsed.role);
    if (parsed.role !== undefined && !/^\d+$/.test(parsed.role) && !roleNames.has(signer)) roleNames.set(signer, parsed.role);
    const [minW, minH] = MIN_SIZE[parsed.type] ?? [0, 0];
    const round = (n: number) => Math.round(n * 100) / 100;
    const field: FieldDef = {
      name,
      type: parsed.type,
      label: labelOf(parsed.name),
      required: parsed.required,
      signer,
      page: t.page,
      x: round(Math.max(0, t.box.left)),
      y: round(Math.max(0, t.box.top)),
      width: round(parsed.width ?? Math.max(minW, t.box.right - t.box.left)),
      height: round(parsed.height ?? Math.max(minH, t.box.bottom - t.box.top)),
    };
    if (parsed.options) field.options = parsed.options;
    fields.push(field);
  }
  const roles = [...roleNames].sort((a, b) => a[0] - b[0]).map(([slot, role]) => ({ slot, role }));
  return { fields, roles, warnings };
}
