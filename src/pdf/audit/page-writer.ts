// A small top-down layout for the pages sealing adds: a cursor that moves down the page, text in
// columns wrapped to their width, and a new page when the next block would not fit. The pages are in
// the audit trail's language (lib/i18n): text the standard Helvetica faces can show uses them (nothing
// to embed); any other text — a translation, and anything that came from people (names, addresses,
// user agents) — goes through the fill area's fonts, chosen by glyph coverage, so every script shows.
// In a right-to-left language the page mirrors: positions are given from the start edge (the left in
// English, the right in Arabic and Hebrew) and turned into page coordinates here, and each line is
// drawn in visual order (shared/bidi-layout.ts) with Arabic shaped by the font's layout.
import { rgb, StandardFonts, type PDFDocument, type PDFFont, type PDFImage, type PDFPage, type RGB } from '@cantoo/pdf-lib';
import { directionOf, t, type Locale, type MessageKey, type Params } from '../../lib/i18n/index.js';
import { isWinAnsi, rememberingWidths, type DocumentFonts } from '../fill/index.js';
import { isolate, visualPieces, withoutControls } from '../shared/bidi-layout.js';

export const COLOURS = {
  ink: rgb(0.12, 0.15, 0.2),
  muted: rgb(0.42, 0.45, 0.5),
  accent: rgb(0.09, 0.27, 0.5),
  rule: rgb(0.84, 0.86, 0.9),
  band: rgb(0.95, 0.96, 0.98),
  white: rgb(1, 1, 1),
} as const;

/** regular/bold/mono: our own words (standard faces when they can show them); value: text from people. */
export type Style = 'regular' | 'bold' | 'mono' | 'value';

interface Run { font: PDFFont; text: string }
interface Measure { runs(text: string): Run[]; widthOfTextAtSize(text: string, size: number): number }

const asMeasure = (font: PDFFont): Measure => ({ runs: (text) => [{ font, text }], widthOfTextAtSize: (s, size) => font.widthOfTextAtSize(s, size) });

/** Wrapped lines and what draws them; `width` is the column they were wrapped to (the box they align in). */
export interface Block { lines: string[]; font: Measure; size: number; leading: number; width: number }

const LETTER: [number, number] = [612, 792];

/** Float rounding between a line's width summed from its words and measured whole (points). */
const ROUNDING_PT = 1e-6;
/** Text whose words' widths add up to the line's (or more): code points before U+0590 only. */
const SUMMABLE = /^[\u0000-\u058f]*$/;

export class PageWriter {
  readonly pages: PDFPage[] = [];
  page!: PDFPage;
  /** Baseline of the next line, from the bottom of the page. */
  y = 0;
  readonly margin = 54;
  readonly dir: 'ltr' | 'rtl';
  private standard!: Record<Exclude<Style, 'value'>, PDFFont>;

  private constructor(
    private readonly doc: PDFDocument, private readonly fonts: DocumentFonts, readonly locale: Locale,
    readonly size: [number, number], private readonly onNewPage: (w: PageWriter) => Promise<void>,
  ) {
    this.dir = directionOf(locale);
  }

  /**
   * Pages the size of the document's first when it is an ordinary portrait page (Letter, A4, Legal:
   * at least 700 pt tall, so a recipient's record fits on one), else US Letter.
   */
  static async create(doc: PDFDocument, fonts: DocumentFonts, locale: Locale, onNewPage: (w: PageWriter) => Promise<void>): Promise<PageWriter> {
    const first = doc.getPages()[0]?.getSize();
    const size: [number, number] = first && first.width >= 480 && first.width <= 680 && first.height >= 700 && first.height <= 1000 ? [first.width, first.height] : LETTER;
    const w = new PageWriter(doc, fonts, locale, size, onNewPage);
    const [regular, bold, mono] = await Promise.all([StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.Courier].map(async (f) => rememberingWidths(await doc.embedFont(f))));
    w.standard = { regular: regular!, bold: bold!, mono: mono! };
    await w.newPage();
    return w;
  }

  get width(): number { return this.size[0]; }
  get contentWidth(): number { return this.size[0] - 2 * this.margin; }

  /** The audit trail's words in its language. */
  t(key: MessageKey, params?: Params): string {
    return t(this.locale, key, params);
  }

  async newPage(): Promise<void> {
    this.page = this.doc.addPage(this.size);
    this.pages.push(this.page);
    this.y = this.size[1] - this.margin;
    await this.onNewPage(this);
  }

  /** Starts a new page unless `height` more points fit above the footer. */
  async need(height: number): Promise<void> {
    if (this.y - height < this.margin + 24) await this.newPage();
  }

  /** The page x of a box `width` wide whose start edge is `x` from the page's start edge. */
  boxX(x: number, width: number): number {
    return this.dir === 'rtl' ? this.width - x - width : x;
  }

  async fontFor(text: string, style: Style): Promise<Measure> {
    // The face is chosen by what is drawn: the direction controls (the isolates around a time or a
    // quotation) are never drawn, and counted they made every isolated value embed DejaVu Sans (the
    // only face with glyphs for them), Latin-1 text included: a subset and a fontkit layout per line
    // in every seal (issue 36).
    const drawn = withoutControls(text);
    return style !== 'value' && isWinAnsi(drawn) ? asMeasure(this.standard[style]) : this.fonts.forValue(drawn);
  }

  /** `text` wrapped to `width` (at spaces where it can, anywhere in a word longer than the line). */
  async block(text: string, width: number, size: number, style: Style, leading = size * 1.3): Promise<Block> {
    const font = await this.fontFor(text, style);
    const widthOf = (s: string) => font.widthOfTextAtSize(withoutControls(s), size);
    const fits = (s: string) => widthOf(s) <= width;
    const space = widthOf(' ');
    const lines: string[] = [];
    for (const written of text.split(/\r?\n/)) {
      // Text from people is laid out in its own direction, as the signing page shows it (<bdi>): an
      // Arabic name with a Latin part reads the same on an English page as on the screen.
      const paragraph = style === 'value' ? isolate(written) : written;
      let line = '';
      // Each candidate line used to be measured whole, which made wrapping quadratic (with an embedded
      // face each measure is a fontkit layout: a quarter of a seal's CPU, issue 36). In the alphabets
      // before Hebrew (Latin, Greek, Cyrillic…) the sum of the line's words and spaces is never less
      // than the line's own measure: an embedded face shapes them within a word (its advances add
      // up), and the standard faces' kerning at a space only tightens (Helvetica's pairs with a space
      // are all negative). So there a sum within the column fits for certain, and only a candidate
      // whose sum is past it is measured whole: every line breaks exactly where it did. Other scripts
      // (joined Arabic, ligatures, faces mixed in one line) are measured whole as before.
      const summable = SUMMABLE.test(withoutControls(paragraph));
      let lineWidth = 0;
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        const candidate = line ? `${line} ${word}` : word;
        const bound = line ? lineWidth + space + widthOf(word) : widthOf(word);
        if (summable && bound <= width - ROUNDING_PT) { line = candidate; lineWidth = bound; continue; }
        const exact = line ? widthOf(candidate) : bound;
        if (exact <= width) { line = candidate; lineWidth = exact; continue; }
        if (line) lines.push(line);
        line = '';
        // A word longer than the line (a hash, or a sentence in a script written without spaces):
        // the longest head that fits, found by halving (a CJK paragraph is one long "word").
        let rest = [...word];
        while (rest.length > 1 && !fits(rest.join(''))) {
          let [lo, hi] = [1, rest.length - 1];
          while (lo < hi) {
            const mid = Math.ceil((lo + hi) / 2);
            if (fits(rest.slice(0, mid).join(''))) lo = mid;
            else hi = mid - 1;
          }
          lines.push(rest.slice(0, lo).join(''));
          rest = rest.slice(lo);
        }
        line = rest.join('');
        lineWidth = widthOf(line);
      }
      lines.push(line);
    }
    const measured = Number.isFinite(width) ? width : Math.max(0, ...lines.map((l) => font.widthOfTextAtSize(withoutControls(l), size)));
    return { lines, font, size, leading, width: measured };
  }

  blockHeight(b: Block): number { return b.lines.length * b.leading; }

  /**
   * Draws a block in its box (start edge `x`, the block's width) with its first baseline at `y`
   * (default: the cursor), each line at the box's start edge, or its end edge with `align: 'end'`;
   * does not move the cursor.
   */
  draw(b: Block, x: number, color: RGB = COLOURS.ink, y = this.y, options: { align?: 'start' | 'end'; page?: PDFPage } = {}): void {
    const page = options.page ?? this.page;
    const left = this.boxX(x, b.width);
    const atEnd = (options.align === 'end') !== (this.dir === 'rtl');
    b.lines.forEach((line, i) => {
      const pieces = visualPieces(line, this.dir, (text) => b.font.runs(text));
      const lineWidth = pieces.reduce((n, r) => n + r.font.widthOfTextAtSize(r.text, b.size), 0);
      let cx = atEnd ? left + b.width - lineWidth : left;
      for (const run of pieces) {
        page.drawText(run.text, { x: cx, y: y - i * b.leading, size: b.size, font: run.font, color });
        cx += run.font.widthOfTextAtSize(run.text, b.size);
      }
    });
  }

  /** One line of text at `x` from the start edge (or ending `x` from the end edge with `align: 'end'`); its width. */
  async text(text: string, x: number, size: number, style: Style, color: RGB = COLOURS.ink, y = this.y, options: { align?: 'start' | 'end'; page?: PDFPage } = {}): Promise<number> {
    const b = await this.block(text, Number.POSITIVE_INFINITY, size, style);
    const start = options.align === 'end' ? this.width - x - b.width : x;
    this.draw({ ...b, lines: [b.lines.join(' ')] }, start, color, y, { page: options.page });
    return b.width;
  }

  async widthOf(text: string, size: number, style: Style): Promise<number> {
    return (await this.fontFor(text, style)).widthOfTextAtSize(withoutControls(text), size);
  }

  rule(y = this.y, color: RGB = COLOURS.rule, x0 = this.margin, x1 = this.width - this.margin, page = this.page): void {
    const [a, b] = [this.boxX(x0, 0), this.boxX(x1, 0)];
    page.drawLine({ start: { x: a, y }, end: { x: b, y }, thickness: 0.6, color });
  }

  /** A rectangle whose start edge is `x` from the page's start edge. */
  rect(x: number, y: number, width: number, height: number, style: { color?: RGB; borderColor?: RGB; borderWidth?: number }): void {
    this.page.drawRectangle({ x: this.boxX(x, width), y, width, height, ...style });
  }

  image(image: PDFImage, box: { x: number; y: number; width: number; height: number }): void {
    this.page.drawImage(image, { ...box, x: this.boxX(box.x, box.width) });
  }
}
