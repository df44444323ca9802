// Right-to-left text on a PDF page. pdf-lib draws glyphs left to right in the order it is given them;
// fontkit's layout (which pdf-lib uses to encode text) shapes Arabic and turns a run of Arabic or
// Hebrew into visual order, but only a run of one direction: a line that mixes directions ("Form
// ID: form_…" in Arabic, an e-mail address in a Hebrew sentence) must first be cut into runs and the
// runs put in visual order. bidi-js does that part of the Unicode Bidirectional Algorithm (UAX #9).
import bidiModule from 'bidi-js';

// bidi-js is CommonJS whose module.exports is the factory; its types declare that as `export default`,
// which TypeScript reads as a property of the module.
const bidiFactory = bidiModule as unknown as typeof bidiModule.default;
type Bidi = ReturnType<typeof bidiFactory>;
let bidi: Bidi | undefined;

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

/** A run of one direction; `rtl` text is in logical order (the font's layout reverses it). */
export interface DirectionalRun { text: string; rtl: boolean }

/**
 * `line` (one wrapped line, logical order) as runs in the order they are drawn from left to right, for
 * a paragraph written `base` (the page's direction). Mirrored characters in right-to-left runs are
 * swapped already ("(" for ")").
 */
export function visualRuns(line: string, base: 'ltr' | 'rtl'): DirectionalRun[] {
  if (line === '' || (base === 'ltr' && !RTL_LETTER.test(line))) return [{ text: withoutControls(line), rtl: false }];
  bidi ??= bidiFactory();
  const resolved = bidi.getEmbeddingLevels(line, base);
  const mirrored = bidi.getMirroredCharactersMap(line, resolved.levels);
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

/**
 * A piece of a right-to-left run as the font's layout must get it: fontkit reverses a run whose
 * script is right-to-left, but not one of neutrals alone (" · ", ": "), which is reversed here.
 */
export function forLayout(text: string, rtl: boolean): string {
  return rtl && !RTL_LETTER.test(text) ? [...text].reverse().join('') : text;
}
