// Text written with spaces breaks at its spaces: a CJK name inside it stays on one line when it fits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineBreaker } from '../../src/pdf/fill/wrap-lines.js';

const chars = (s: string) => [...s].length;
const wrap = (text: string, maxWidth: number) => lineBreaker(text, chars)(maxWidth);

describe('line breaking in text written with spaces', () => {
  it('keeps a Japanese name whole when a break at a space fits', () => {
    // Before: "Contact: 田中" then "太郎 (Tokyo)", the name split across lines.
    assert.deepEqual(wrap('Contact: 田中太郎 (Tokyo)', 11), ['Contact:', '田中太郎', '(Tokyo)']);
    assert.deepEqual(wrap('担当 田中太郎 様', 6), ['担当', '田中太郎 様']);
  });

  it('still breaks between CJK characters inside a word wider than a line, keeping closing marks with it', () => {
    // Too wide for any line, so it fills lines as prose would; 。 never starts one.
    assert.deepEqual(wrap('住所 東京都新宿区西新宿。二丁目', 5), ['住所 東京', '都新宿区西', '新宿。二丁', '目']);
  });

  it('breaks CJK prose without spaces anywhere, as before', () => {
    assert.deepEqual(wrap('日本語のテキストです', 4), ['日本語の', 'テキスト', 'です']);
    assert.deepEqual(wrap('  日本語のテキスト', 6), ['  日本語の', 'テキスト']);
  });
});
