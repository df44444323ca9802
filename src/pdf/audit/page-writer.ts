// A small top-down layout for the pages sealing adds: a cursor that moves down the page, text in
// columns wrapped to their width, and a new page when the next block would not fit. Our own labels
// use the standard Helvetica faces; anything that came from people (names, addresses, user agents)
// goes through the fill area's fonts, chosen by glyph coverage, so every script shows.
import { rgb, StandardFonts, type PDFDocument, type PDFFont, type PDFPage, type RGB } from '@cantoo/pdf-lib';
import type { DocumentFonts, ValueFont } from '../fill/index.js';

export const COLOURS = {
  ink: rgb(0.12, 0.15, 0.2),
  muted: rgb(0.42, 0.45, 0.5),
  accent: rgb(0.09, 0.27, 0.5),
  rule: rgb(0.84, 0.86, 0.9),
  band: rgb(0.95, 0.96, 0.98),
  white: rgb(1, 1, 1),
} as const;

/** regular/bold/mono: our own (Latin-1) text; value: text that came from people, any script. */
export type Style = 'regular' | 'bold' | 'mono' | 'value';

interface Run { font: PDFFont; text: string }
interface Measure { runs(text: string): Run[]; widthOfTextAtSize(text: string, size: number): number }

const asMeasure = (font: PDFFont): Measure => ({ runs: (text) => [{ font, text }], widthOfTextAtSize: (t, s) => font.widthOfTextAtSize(t, s) });

export interface Block { lines: string[]; font: Measure; size: number; leading: number }

const LETTER: [number, number] = [612, 792];

export class PageWriter {
  readonly pages: PDFPage[] = [];
  page!: PDFPage;
  /** Baseline of the next line, from the bottom of the page. */
  y = 0;
  readonly margin = 54;
  private standard!: Record<Exclude<Style, 'value'>, PDFFont>;

  private constructor(private readonly doc: PDFDocument, private readonly fonts: DocumentFonts, readonly size: [number, number], private readonly onNewPage: (w: PageWriter) => void) {}

  /** Pages the size of the document's first (when it is an ordinary portrait page), else US Letter. */
  static async create(doc: PDFDocument, fonts: DocumentFonts, onNewPage: (w: PageWriter) => void): Promise<PageWriter> {
    const first = doc.getPages()[0]?.getSize();
    const size: [number, number] = first && first.width >= 480 && first.width <= 680 && first.height > first.width && first.height <= 1000 ? [first.width, first.height] : LETTER;
    const w = new PageWriter(doc, fonts, size, onNewPage);
    const [regular, bold, mono] = await Promise.all([StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.Courier].map((f) => doc.embedFont(f)));
    w.standard = { regular: regular!, bold: bold!, mono: mono! };
    w.newPage();
    return w;
  }

  get width(): number { return this.size[0]; }
  get contentWidth(): number { return this.size[0] - 2 * this.margin; }

  newPage(): void {
    this.page = this.doc.addPage(this.size);
    this.pages.push(this.page);
    this.y = this.size[1] - this.margin;
    this.onNewPage(this);
  }

  /** Starts a new page unless `height` more points fit above the footer. */
  need(height: number): void {
    if (this.y - height < this.margin + 24) this.newPage();
  }

  async fontFor(text: string, style: Style): Promise<Measure> {
    return style === 'value' ? (await this.fonts.forValue(text)) satisfies ValueFont : asMeasure(this.standard[style]);
  }

  /** `text` wrapped to `width` (at spaces where it can, anywhere in a word longer than the line). */
  async block(text: string, width: number, size: number, style: Style, leading = size * 1.3): Promise<Block> {
    const font = await this.fontFor(text, style);
    const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
    const lines: string[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      let line = '';
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        const candidate = line ? `${line} ${word}` : word;
        if (fits(candidate)) { line = candidate; continue; }
        if (line) lines.push(line);
        line = '';
        let rest = word;
        while (!fits(rest)) {
          let cut = [...rest].length - 1;
          while (cut > 1 && !fits([...rest].slice(0, cut).join(''))) cut--;
          lines.push([...rest].slice(0, cut).join(''));
          rest = [...rest].slice(cut).join('');
        }
        line = rest;
      }
      lines.push(line);
    }
    return { lines, font, size, leading };
  }

  blockHeight(b: Block): number { return b.lines.length * b.leading; }

  /** Draws a block with its first baseline at `y` (default: the cursor); does not move the cursor. */
  draw(b: Block, x: number, color: RGB = COLOURS.ink, y = this.y): void {
    b.lines.forEach((line, i) => {
      let cx = x;
      for (const run of b.font.runs(line)) {
        this.page.drawText(run.text, { x: cx, y: y - i * b.leading, size: b.size, font: run.font, color });
        cx += run.font.widthOfTextAtSize(run.text, b.size);
      }
    });
  }

  async text(text: string, x: number, size: number, style: Style, color: RGB = COLOURS.ink, y = this.y): Promise<number> {
    const b = await this.block(text, Number.POSITIVE_INFINITY, size, style);
    this.draw(b, x, color, y);
    return b.font.widthOfTextAtSize(text, size);
  }

  /** Our own (Latin-1) text at a given point of a given page, without wrapping. */
  label(text: string, x: number, y: number, size: number, style: Exclude<Style, 'value'>, color: RGB = COLOURS.ink, page = this.page): void {
    page.drawText(text, { x, y, size, font: this.standard[style], color });
  }

  widthOf(text: string, size: number, style: Exclude<Style, 'value'>): number {
    return this.standard[style].widthOfTextAtSize(text, size);
  }

  rule(y = this.y, color: RGB = COLOURS.rule, x0 = this.margin, x1 = this.width - this.margin): void {
    this.page.drawLine({ start: { x: x0, y }, end: { x: x1, y }, thickness: 0.6, color });
  }
}
