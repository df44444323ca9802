// Line breaking for multiline values. pdf-lib breaks only at spaces, so Chinese or Japanese text (which
// has none) ran past the field's edge. Here a line may also break between two CJK characters (within
// text written with spaces, only inside a word too wide for a line), keeping
// closing punctuation with the character before it, and a word too long for a line of its own is cut
// between characters. Whitespace inside a line is kept as written (a value's spacing is part of it);
// only the whitespace where a line breaks is dropped. No-break spaces never break.

/** Characters a line may break between (a regular-expression class body, for the `u` flag). */
export const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\u3001-\u303f\uff00-\uffef';
// Spaces a line may break at: not U+00A0, U+2007 or U+202F, which exist to hold words together.
const BREAKING_SPACE = ' \\t\u1680\u2000-\u2006\u2008-\u200a\u205f\u3000';
// Marks that must not begin a line (Japanese kinsoku): they stay with what comes before them.
const NO_LINE_START = '、。，．・：；？！）」』】〕〉》ー〜ゝゞヽヾ,.!?)';
const TOKEN = new RegExp(`[${BREAKING_SPACE}]+|[${CJK}][${NO_LINE_START}]*|[^${BREAKING_SPACE}${CJK}]+[${NO_LINE_START}]*`, 'gu');
const IS_SPACE = new RegExp(`^[${BREAKING_SPACE}]`, 'u');

interface Word { text: string; parts: string[] }

/**
 * The units a paragraph breaks into. Where the writer separated words with spaces, text between two
 * spaces stays together ("田中太郎" in "Contact: 田中太郎 (Tokyo)" is a name, not four break points),
 * and is broken between its CJK characters only when it is wider than a line. Text without spaces
 * (Chinese or Japanese prose) breaks between any two CJK characters.
 */
function words(tokens: string[]): Word[] {
  const firstWord = tokens.findIndex((t) => !IS_SPACE.test(t));
  const spaced = firstWord >= 0 && tokens.slice(firstWord).some((t) => IS_SPACE.test(t));
  if (!spaced) return tokens.map((t) => ({ text: t, parts: [t] }));
  const out: Word[] = [];
  for (const t of tokens) {
    const last = out[out.length - 1];
    if (last && !IS_SPACE.test(t) && !IS_SPACE.test(last.text)) {
      last.text += t;
      last.parts.push(t);
    } else out.push({ text: t, parts: [t] });
  }
  return out;
}

/** Breaks one text at any width; widths are measured once per piece, so trying many widths is cheap. */
export type LineBreaker = (maxWidth: number) => string[];

/**
 * `widthOf` measures a piece of text; a line's width is taken as the sum of its pieces' widths (kerning
 * across a break opportunity is ignored, so callers should leave a hair of slack).
 */
export function lineBreaker(text: string, widthOf: (s: string) => number): LineBreaker {
  const widths = new Map<string, number>();
  const measure = (s: string): number => {
    let w = widths.get(s);
    if (w === undefined) widths.set(s, (w = widthOf(s)));
    return w;
  };
  // Paragraphs end where pdf-lib's own line splitting ends them, and a CR LF pair is one end.
  const paragraphs = text.split(/\r\n|[\n\f\r\v]/).map((p) => words(p.match(TOKEN) ?? []));

  return (maxWidth) => {
    const lines: string[] = [];
    for (const tokens of paragraphs) {
      let line = '';
      let width = 0;
      // Whitespace after the line so far: kept if another piece follows on this line.
      let gap = '';
      let gapWidth = 0;
      let started = false;
      const breakLine = () => {
        lines.push(line);
        line = '';
        width = 0;
        gap = '';
        gapWidth = 0;
      };
      const place = (token: string): void => {
        const w = measure(token);
        if (width + gapWidth + w <= maxWidth) {
          line += gap + token;
          width += gapWidth + w;
          gap = '';
          gapWidth = 0;
          return;
        }
        if (line !== '') breakLine();
        gap = '';
        gapWidth = 0;
        if (w <= maxWidth) {
          line = token;
          width = w;
          return;
        }
        // Wider than a whole line: cut it between characters.
        for (const ch of token) {
          const cw = measure(ch);
          if (line !== '' && width + cw > maxWidth) breakLine();
          line += ch;
          width += cw;
        }
      };
      for (const { text: token, parts } of tokens) {
        if (IS_SPACE.test(token)) {
          // A paragraph's leading whitespace is kept; a continuation line's is where it broke.
          if (line !== '' || !started) {
            gap += token;
            gapWidth += measure(token);
          }
          continue;
        }
        started = true;
        // A word that fits goes whole; one wider than a line is laid out by its CJK pieces.
        if (parts.length === 1 || measure(token) <= maxWidth) place(token);
        else for (const part of parts) place(part);
      }
      lines.push(line);
    }
    return lines;
  };
}
