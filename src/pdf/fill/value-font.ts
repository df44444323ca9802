// One value, several fonts. No bundled face covers every script: DejaVu Sans has no kanji, the CJK
// faces have no Ł or ğ. A value that mixes them ("Łukasz 田中") is drawn in runs. Each word goes to the
// value's main face when that face has all of it, else to the first face that has all of it, so a word
// keeps one look ("Łukasz" stays in DejaVu); a word no face covers whole goes character by character.
// The choice depends on the word alone, never on its neighbours, so widths measured piece by piece add
// up to the width of the line they make (line breaking relies on that).
import type { PDFFont } from '@cantoo/pdf-lib';
import { CJK } from './wrap-lines.js';

export interface Run {
  font: PDFFont;
  text: string;
}

/** What layout needs of a font: pdf-lib's own PDFFont fits, and so does a ValueFont. */
export interface TextMetrics {
  widthOfTextAtSize(text: string, size: number): number;
  heightAtSize(size: number, options?: { descender?: boolean }): number;
}

/** A font that may draw part of a value, and whether it has a glyph for a code point. */
export interface Candidate {
  font: PDFFont;
  has(codePoint: number): boolean;
}

// Words (letters with their marks, digits), each CJK character on its own (as line breaking sees
// them), or any other single character.
const SEGMENT = new RegExp(`(?:(?![${CJK}])[\\p{L}\\p{M}\\p{N}])+|[${CJK}]\\p{M}*|[^]`, 'gu');

export class ValueFont implements TextMetrics {
  readonly primary: PDFFont;
  private readonly used: readonly PDFFont[];

  /**
   * `main` first, then the other faces in order of preference; only those that can draw some character
   * of the value need be given.
   */
  constructor(private readonly main: Candidate, private readonly others: readonly Candidate[]) {
    this.primary = main.font;
    this.used = [main.font, ...others.map((c) => c.font)];
  }

  /** True when some character may be drawn in another font than the primary. */
  get mixed(): boolean {
    return this.others.length > 0;
  }

  /** The fonts besides the primary one, which an appearance stream must list among its resources. */
  get extraFonts(): readonly PDFFont[] {
    return this.used.slice(1);
  }

  private fontFor(segment: string): PDFFont | undefined {
    const cps = [...segment].map((ch) => ch.codePointAt(0) ?? 0);
    if (cps.every((cp) => this.main.has(cp))) return this.main.font;
    return this.others.find((c) => cps.every((cp) => c.has(cp)))?.font;
  }

  /** `text` cut into runs of one font each. */
  runs(text: string): Run[] {
    const runs: Run[] = [];
    const add = (font: PDFFont, piece: string) => {
      const last = runs[runs.length - 1];
      if (last && last.font === font) last.text += piece;
      else runs.push({ font, text: piece });
    };
    for (const [segment] of text.matchAll(SEGMENT)) {
      const font = this.fontFor(segment);
      if (font) add(font, segment);
      // No face has the whole word: each character on its own (the main face's blank glyph if none has it).
      else for (const ch of segment) add(this.fontFor(ch) ?? this.main.font, ch);
    }
    return runs;
  }

  widthOfTextAtSize(text: string, size: number): number {
    if (!this.mixed) return this.primary.widthOfTextAtSize(text, size);
    let width = 0;
    for (const run of this.runs(text)) width += run.font.widthOfTextAtSize(run.text, size);
    return width;
  }

  /** The tallest of the fonts in use, so lines of mixed text never overlap. */
  heightAtSize(size: number, options?: { descender?: boolean }): number {
    return Math.max(...this.used.map((f) => f.heightAtSize(size, options)));
  }
}
