// Right-to-left text on a PDF page: the one bidi layout that every piece of drawn text goes through
// (filled values, their appearance streams and flattened copies, the audit and signature pages).
// pdf-lib draws glyphs left to right in the order it is given them; fontkit's layout (which pdf-lib
// uses to encode text) shapes Arabic and reverses a string whose first script is right to left, all
// of it, digits included ("12 شارع" came out "21"). So a line is first cut into runs with the Unicode
// Bidirectional Algorithm (UAX #9, through bidi-js), the runs put in visual order, and each run handed
// to the font so that its reversal (or lack of one) leaves the glyphs in the order they are seen.
import bidiModule from 'bidi-js';

// bidi-js is CommonJS whose module.exports is the factory; its types declare that as `export default`,
// which TypeScript reads as a property of the module.
const bidiFactory = bidiModule as unknown as typeof bidiModule.default;
type Bidi = ReturnType<typeof bidiFactory>;
let bidi: Bidi | undefined;
const engine = (): Bidi => (bidi ??= bidiFactory());

export type Direction = 'ltr' | 'rtl';

/** Strong right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms). */
export const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;

// Isolates (LRI, RLI, FSI … PDI) and marks steer the algorithm; they are not drawn.
const CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** `text` kept left to right inside a paragraph of either direction (a time, "2026-11-24 09:30:05 UTC"). */
export const ltr = (text: string): string => `\u2066${text}\u2069`;
/** `text` laid out in its own direction, whatever the paragraph's (a quotation in another language). */
export const isolate = (text: string): string => `\u2068${text}\u2069`;
/** `text` without the direction controls, as it is measured and drawn. */
export const withoutControls = (text: string): string => text.replace(CONTROLS, '');

/**
 * The direction of a value written by people: that of its first strong letter (UAX #9 rules P2–P3,
 * what `dir="auto"` does in a browser), left to right when it has none.
 */
export function textDirection(text: string): Direction {
  if (!RTL_LETTER.test(text)) return 'ltr';
  return (engine().getEmbeddingLevels(text).paragraphs[0]?.level ?? 0) % 2 === 1 ? 'rtl' : 'ltr';
}

/** True when a line needs more than left-to-right drawing: it has a right-to-left character. */
export const needsBidi = (text: string): boolean => RTL_LETTER.test(text);

/** A run of one direction; `rtl` text is in logical order (the font's layout reverses it). */
export interface DirectionalRun { text: string; rtl: boolean }

/**
 * `line` (one wrapped line, logical order) as runs in the order they are drawn from left to right, for
 * a paragraph written `base`. Mirrored characters in right-to-left runs are swapped already ("(" for ")").
 */
export function visualRuns(line: string, base: Direction): DirectionalRun[] {
  if (line === '' || (base === 'ltr' && !RTL_LETTER.test(line))) return [{ text: withoutControls(line), rtl: false }];
  const resolved = engine().getEmbeddingLevels(line, base);
  const mirrored = engine().getMirroredCharactersMap(line, resolved.levels);
  const runs: Array<{ text: string; level: number }> = [];
  for (let i = 0; i < line.length; i++) {
    const level = resolved.levels[i] ?? 0;
    const ch = mirrored.get(i) ?? line[i]!;
    const last = runs[runs.length - 1];
    if (last && last.level === level) last.text += ch;
    else runs.push({ text: ch, level });
  }
  // Rule L2: from the highest level down to the lowest odd one, reverse every sequence of runs at
  // that level or above.
  const levels = runs.map((r) => r.level);
  const lowestOdd = Math.min(...levels.filter((l) => l % 2 === 1));
  for (let level = Math.max(...levels); level >= lowestOdd; level--) {
    for (let i = 0; i < runs.length; i++) {
      if (runs[i]!.level < level) continue;
      let j = i;
      while (j + 1 < runs.length && runs[j + 1]!.level >= level) j++;
      runs.splice(i, j - i + 1, ...runs.slice(i, j + 1).reverse());
      i = j;
    }
  }
  return runs.map((r) => ({ text: withoutControls(r.text), rtl: r.level % 2 === 1 })).filter((r) => r.text !== '');
}

// fontkit picks a string's script from its first character that is not Common or Inherited, and
// reverses the whole string when that script is written right to left.
const FIRST_SCRIPTED = /[^\p{Script=Common}\p{Script=Inherited}]/u;
const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}]/u;
const fontReverses = (text: string): boolean => RTL_SCRIPT.test(text.match(FIRST_SCRIPTED)?.[0] ?? '');

/**
 * A piece of a run as the font's layout must get it so that its glyphs come out in visual order: a
 * right-to-left piece the font will not reverse (neutrals alone: " · ", ": ") is reversed here, and a
 * left-to-right one it would reverse (Arabic-Indic digits, "١٢") is reversed here so that it is
 * turned back.
 */
export function forLayout(text: string, rtl: boolean): string {
  return rtl !== fontReverses(text) ? [...text].reverse().join('') : text;
}

/** A piece of a line in one font, ready for pdf-lib's drawText / encodeText. */
export interface Piece<F> { font: F; text: string }

/**
 * `line` as the pieces drawn from left to right, one after the other: its bidi runs in visual order,
 * each cut by `runs` into pieces of one font (logical order within a run), each prepared for the
 * font's layout. The pieces' widths add up to the line's.
 */
export function visualPieces<F>(line: string, base: Direction, runs: (text: string) => ReadonlyArray<Piece<F>>): Array<Piece<F>> {
  return visualRuns(line, base).flatMap(({ text, rtl }) => {
    const pieces = runs(text).map((r) => ({ font: r.font, text: forLayout(r.text, rtl) }));
    return rtl ? pieces.reverse() : pieces;
  });
}
