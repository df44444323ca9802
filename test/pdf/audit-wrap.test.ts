// The audit page's wrapping sums word widths instead of measuring each longer candidate line whole
// (issue 36: that measuring was a quarter of a seal's CPU). Its lines must be exactly the ones the
// whole-line measure gives, in the standard faces (kerning at spaces) and the embedded ones.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFDocument } from '@cantoo/pdf-lib';
import { PageWriter, type Style } from '../../src/pdf/audit/page-writer.js';
import { DocumentFonts } from '../../src/pdf/fill/index.js';
import { isolate, withoutControls } from '../../src/pdf/shared/bidi-layout.js';

/** The wrapping as it was: every candidate line measured whole. */
async function wrappedWhole(w: PageWriter, text: string, width: number, size: number, style: Style): Promise<string[]> {
  const font = await w.fontFor(text, style);
  const fits = (s: string) => font.widthOfTextAtSize(withoutControls(s), size) <= width;
  const lines: string[] = [];
  for (const written of text.split(/\r?\n/)) {
    const paragraph = style === 'value' ? isolate(written) : written;
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (fits(candidate)) { line = candidate; continue; }
      if (line) lines.push(line);
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
    }
    lines.push(line);
  }
  return lines;
}

const WORDS = [
  'Tom', 'AVAWAY', 'Yes', 'the', 'quick', 'brown', 'fox', 'Mozilla/5.0', '(X11;', 'Linux', 'x86_64)', 'AppleWebKit/537.36', 'T.', 'Y', 'W', 'A',
  'Wälder', 'Ünïcödé', '“quoted”', 'naïve', 'Ελληνικά', 'Привет', 'office', 'sha256:0123456789abcdef0123456789abcdef0123456789abcdef',
  'שלום', 'مرحبا', 'ﬂow', '日本語のテキスト', '—', '·', '✓', '→',
];

describe('the audit page wraps lines where measuring each line whole would', () => {
  it('gives the same lines for 600 paragraphs in four styles, Latin, Greek, Cyrillic, Hebrew, Arabic and CJK', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    const w = await PageWriter.create(doc, new DocumentFonts(doc), 'en', async () => undefined);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 600; i++) {
      // Half the paragraphs Latin only (the summed path), half with any word.
      const pool = i % 2 === 0 ? WORDS.slice(0, 24) : WORDS;
      const text = Array.from({ length: 1 + Math.floor(random() * 30) }, () => pool[Math.floor(random() * pool.length)]).join(random() < 0.1 ? '\n' : ' ');
      const width = 30 + random() * 450;
      const size = [8, 9, 10, 10.5, 12][Math.floor(random() * 5)]!;
      const style = (['value', 'regular', 'bold', 'mono'] as const)[Math.floor(random() * 4)]!;
      const block = await w.block(text, width, size, style);
      assert.deepEqual(block.lines, await wrappedWhole(w, text, width, size, style), `${style} ${size} pt in ${width} pt: ${text}`);
    }
  });
});
