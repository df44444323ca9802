// Labels as a signer reads them. Whatever a label came from (the field's tooltip, the XFA template,
// the printed text beside the field), it is tidied the same way: template placeholders ("{{ 投资者名称 }}",
// "______") lose their markers, letter-spaced abbreviations are joined ("I R S" → "IRS", the 1040's
// screen-reader spelling), and no label starts with punctuation (", 2024, ending" → "2024, ending"). Then
// labels that repeat on one page ("Last name" twice, "Phone no" three times) get the words that tell
// them apart — the heading of their section, or the label of the field just before them on the same
// line — and are dropped when nothing does.
import type { FieldDef } from '../field.js';

// Two or more single capital letters separated by single spaces, standing alone as a word.
const LETTER_SPACED = /(?<![\p{L}\p{N}])\p{Lu}(?: \p{Lu}){1,}(?![\p{L}\p{N}])/gu;
// A short marker in brackets in front of a label ("[1]", "(a)"): a reference, not words.
const LEADING_MARKER = /^[([]\s*[\p{L}\p{N}]{1,3}\s*[)\]]\s*/u;
const LEADING_PUNCTUATION = /^[\p{P}\p{S}\s]+/u;
const TRAILING = /[\s:;,.*_]+$/u;

/** One label tidied, or undefined when nothing that reads as words is left. */
export function tidyFieldLabel(label: string | undefined): string | undefined {
  if (label === undefined) return undefined;
  let t = label
    .replace(/\{\{\s*|\s*\}\}/g, ' ') // {{ placeholder }} → its words
    .replace(/_{2,}/g, ' ') // fill-in leaders
    .replace(/\s+/g, ' ')
    .trim()
    .replace(LETTER_SPACED, (m) => m.replace(/ /g, ''));
  // Markers and punctuation before the words, then again (", (1) Name").
  for (let before = ''; before !== t;) {
    before = t;
    t = t.replace(LEADING_PUNCTUATION, '').replace(LEADING_MARKER, '');
  }
  t = t.replace(TRAILING, '').trim();
  return /\p{L}/u.test(t) ? t : undefined;
}

/** A field name that is already words a person wrote ("Applicant Address Country"), not a code ("f1_02[0]", "Text12"). */
export function nameIsWords(name: string): boolean {
  if (!/^[\p{L}][\p{L}\p{N}\s'’/#().,&-]*$/u.test(name)) return false;
  return name.split(/\s+/).filter((w) => /^[\p{L}'’]{2,}[.,]?$/u.test(w)).length >= 2;
}

/**
 * The label a field's own tooltip gives it, unless the field's name already says more in words: a
 * tooltip shorter than such a name is a slip of the author's (the DS-11's "Applicant Address Country"
 * has the tooltip "City"), so the name is the label then.
 */
export function labelFromTooltip(name: string, tooltip: string | undefined): string | undefined {
  if (tooltip === undefined || !nameIsWords(name)) return tooltip;
  return tooltip.length < name.length ? name : tooltip;
}

const key = (label: string): string => label.toLocaleLowerCase().replace(/[\s.:]+/g, ' ').trim();
const parentOf = (name: string): string => name.slice(0, Math.max(0, name.lastIndexOf('.')));

/** The heading a label starts with: its first sentence, when more follows ("Sign Here. Joint return? …"). */
function headingOf(label: string | undefined): string | undefined {
  const m = label === undefined ? null : /^(.{3,80}?)[.?!]\s+\S/u.exec(label);
  return m?.[1];
}

/** The field just before `f` in the document's order when it stands on the same line, to its left. */
function leftNeighbour(fields: readonly FieldDef[], index: number): FieldDef | undefined {
  const f = fields[index]!;
  const prev = fields[index - 1];
  if (!prev || prev.page !== f.page || prev.label === undefined) return undefined;
  const sameLine = prev.y < f.y + f.height && prev.y + prev.height > f.y;
  return sameLine && prev.x + prev.width <= f.x + 2 && f.x - (prev.x + prev.width) < 240 ? prev : undefined;
}

/** The words that tell apart a label repeated on its page, if the form gives any. */
function contextOf(fields: readonly FieldDef[], index: number): string | undefined {
  const f = fields[index]!;
  const parent = parentOf(f.name);
  if (parent) {
    const first = fields.find((g) => g.page === f.page && parentOf(g.name) === parent);
    const heading = first && first !== f ? headingOf(first.label) : undefined;
    if (heading) return heading;
  }
  return leftNeighbour(fields, index)?.label;
}

/**
 * Every label tidied, and labels repeated on one page joined with their context ("Sign Here: Phone no");
 * when that still leaves them alike, they are dropped (the field's name is shown instead).
 */
export function refineLabels(fields: FieldDef[]): void {
  for (const f of fields) {
    const label = tidyFieldLabel(f.label);
    if (label === undefined) delete f.label;
    else f.label = label;
  }
  const groups = new Map<string, number[]>();
  fields.forEach((f, i) => {
    if (f.label === undefined) return;
    const k = `${f.page}\u0000${key(f.label)}`;
    groups.set(k, [...(groups.get(k) ?? []), i]);
  });
  for (const indexes of groups.values()) {
    if (indexes.length < 2) continue;
    const joined = indexes.map((i) => {
      const context = contextOf(fields, i);
      return context && key(context) !== key(fields[i]!.label!) ? `${context}: ${fields[i]!.label!}` : undefined;
    });
    const distinct = new Set(joined.map((j) => (j === undefined ? undefined : key(j))));
    indexes.forEach((i, n) => {
      const j = joined[n];
      const unique = j !== undefined && distinct.size === joined.length && !joined.includes(undefined);
      if (unique) fields[i]!.label = j;
      else delete fields[i]!.label;
    });
  }
}
