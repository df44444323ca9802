// One value, several fonts. No bundled face covers every script: DejaVu Sans has no kanji, the CJK
// faces have no Ł or ğ. A value that mixes them ("Łukasz 田中") is drawn in runs, each character in the
// value's main face when that face has it, else in the first face that does.
import type { PDFFont } from '@cantoo/pdf-lib';

export interface Run {
  font: PDFFont;
  text: string;
}

/** What layout needs of a font: pdf-lib's own PDFFont fits, and so does a ValueFont. */
export interface TextMetrics {
  widthOfTextAtSize(text: string, size: number): number;
  heightAtSize(size: number, options?: { descender?: boolean }): number;
}

export class ValueFont implements TextMetrics {
  private readonly fonts: readonly PDFFont[];

  /** `others`: the font for each character the primary font lacks. */
  constructor(readonly primary: PDFFont, private readonly others: ReadonlyMap<string, PDFFont>) {
    this.fonts = [primary, ...new Set(others.values())];
  }

  /** True when some character is drawn in another font than the primary. */
  get mixed(): boolean {
    return this.others.size > 0;
  }

  /** The fonts besides the primary one, which an appearance stream must list among its resources. */
  get extraFonts(): readonly PDFFont[] {
    return this.fonts.slice(1);
  }

  /** `text` cut into runs of one font each; spaces stay in the run they are in, so runs are few. */
  runs(text: string): Run[] {
    const runs: Run[] = [];
    for (const ch of text) {
      const last = runs[runs.length - 1];
      const font = /\s/u.test(ch) && last ? last.font : (this.others.get(ch) ?? this.primary);
      if (last && last.font === font) last.text += ch;
      else runs.push({ font, text: ch });
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
    return Math.max(...this.fonts.map((f) => f.heightAtSize(size, options)));
  }
}
