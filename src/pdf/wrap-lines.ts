// Line breaking for values drawn on flat templates. pdf-lib breaks only at spaces, so Chinese or
// Japanese text (which has none) ran past the field's edge. Here a line may also break between two
// CJK characters, keeping closing punctuation with the character before it, and a word too long for a
// line of its own is cut between characters.

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\u3000-\u303f\uff00-\uffef';
// Marks that must not begin a line (Japanese kinsoku): they stay with the character before them.
const NO_LINE_START = '、。，．・：；？！）」』】〕〉》ー〜ゝゞヽヾ,.!?)';
const TOKEN = new RegExp(`\\s+|[${CJK}][${NO_LINE_START}]*|[^\\s${CJK}]+`, 'gu');

/** Splits `text` into lines whose measured width is at most `maxWidth`; paragraphs stay apart. */
export function wrapLines(text: string, widthOf: (s: string) => number, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    let space = false;
    const push = () => {
      lines.push(line);
      line = '';
      space = false;
    };
    for (const token of paragraph.match(TOKEN) ?? []) {
      if (/^\s/u.test(token)) {
        space = line !== '';
        continue;
      }
      const candidate = line === '' ? token : `${line}${space ? ' ' : ''}${token}`;
      if (widthOf(candidate) <= maxWidth) {
        line = candidate;
        space = false;
        continue;
      }
      if (line !== '') push();
      if (widthOf(token) <= maxWidth) {
        line = token;
        continue;
      }
      // Wider than a whole line: cut it between characters.
      for (const ch of token) {
        if (line !== '' && widthOf(line + ch) > maxWidth) push();
        line += ch;
      }
    }
    push();
  }
  return lines;
}
