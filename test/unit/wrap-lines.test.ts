import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineBreaker } from '../../src/pdf/fill/wrap-lines.js';

// Width = number of characters, so expected lines can be read off by eye.
const chars = (s: string) => [...s].length;
const wrapLines = (text: string, widthOf: (s: string) => number, maxWidth: number) => lineBreaker(text, widthOf)(maxWidth);

describe('wrapLines', () => {
  it('breaks Latin text at spaces and keeps short text whole', () => {
    assert.deepEqual(wrapLines('the quick brown fox jumps', chars, 10), ['the quick', 'brown fox', 'jumps']);
    assert.deepEqual(wrapLines('short', chars, 10), ['short']);
    assert.deepEqual(wrapLines('', chars, 10), ['']);
  });

  it('breaks between CJK characters, which have no spaces', () => {
    assert.deepEqual(wrapLines('日本語のテキストです', chars, 4), ['日本語の', 'テキスト', 'です']);
    assert.deepEqual(wrapLines('简体中文简体中文', chars, 3), ['简体中', '文简体', '中文']);
    assert.deepEqual(wrapLines('한국어 텍스트입니다', chars, 4), ['한국어', '텍스트입', '니다']);
  });

  it('never starts a line with closing punctuation', () => {
    assert.deepEqual(wrapLines('日本語。日本', chars, 3), ['日本', '語。日', '本']);
    assert.deepEqual(wrapLines('東京 Tokyo。大阪', chars, 6), ['東京', 'Tokyo。', '大阪']);
  });

  it('mixes scripts without inventing spaces', () => {
    assert.deepEqual(wrapLines('ABC日本語', chars, 4), ['ABC日', '本語']);
  });

  it('cuts a word longer than a line between its characters', () => {
    assert.deepEqual(wrapLines('a verylongwordindeed b', chars, 6), ['a', 'verylo', 'ngword', 'indeed', 'b']);
  });

  it('keeps paragraphs apart', () => {
    assert.deepEqual(wrapLines('one two\nthree four', chars, 20), ['one two', 'three four']);
    assert.deepEqual(wrapLines('one\r\n\r\ntwo', chars, 20), ['one', '', 'two']);
  });

  it('keeps spacing inside a line as written and drops it only where a line breaks', () => {
    assert.deepEqual(wrapLines('Qty:    5', chars, 20), ['Qty:    5']);
    assert.deepEqual(wrapLines('  indented start', chars, 20), ['  indented start']);
    assert.deepEqual(wrapLines('山田\u3000太郎', chars, 20), ['山田\u3000太郎']);
    assert.deepEqual(wrapLines('aaaa    bbbb', chars, 6), ['aaaa', 'bbbb']);
    assert.deepEqual(wrapLines('山田\u3000太郎', chars, 2), ['山田', '太郎']);
  });

  it('never breaks at a no-break space', () => {
    assert.deepEqual(wrapLines('Mr\u00a0Smith and Mrs\u00a0Jones', chars, 12), ['Mr\u00a0Smith and', 'Mrs\u00a0Jones']);
    assert.deepEqual(wrapLines('10\u202fkg of 20\u2007kg', chars, 6), ['10\u202fkg', 'of', '20\u2007kg']);
  });

  it('no line is wider than asked, whatever the input', () => {
    const text = 'Ελληνικά 日本語のテキスト long-unbroken-token-here, and 한국어 텍스트。 Привет мир';
    for (const width of [1, 2, 5, 9, 17]) {
      const lines = wrapLines(text, chars, width);
      for (const l of lines) assert.ok(chars(l) <= width, `${JSON.stringify(l)} fits ${width}`);
      assert.equal(lines.join('').replace(/\s/g, ''), text.replace(/\s/g, ''), 'nothing is lost');
    }
  });
});
