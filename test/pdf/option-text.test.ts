import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pairOptions, readableNameBytes } from '../../src/pdf/shared/option-text.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('readableNameBytes', () => {
  it('keeps ASCII and UTF-8 names', () => {
    assert.equal(readableNameBytes(utf8('Yes')), 'Yes');
    assert.equal(readableNameBytes(utf8('Créé')), 'Créé');
    assert.equal(readableNameBytes(utf8('Ελληνικά')), 'Ελληνικά');
  });

  it('repairs Shift-JIS names that were read as Windows-1252 and saved as UTF-8', () => {
    assert.equal(readableNameBytes(utf8('‘I‘ð“à—e1')), '選択内容1');
  });

  it('decodes raw Shift-JIS bytes and falls back to PDFDocEncoding for anything else', () => {
    const sjis = Uint8Array.from([0x91, 0x49, 0x91, 0xf0, 0x31]); // 選択1
    assert.equal(readableNameBytes(sjis), '選択1');
    assert.equal(readableNameBytes(Uint8Array.from([0x4f, 0x75, 0xef])), 'Ouï');
    // From the CDC form: PDFDocEncoding's apostrophe, which is also a Shift-JIS lead byte.
    assert.equal(readableNameBytes(Uint8Array.from([...utf8('Resident'), 0x90, ...utf8('s room')])), 'Resident’s room');
  });
});

describe('pairOptions', () => {
  it('drops duplicates and empty options', () => {
    assert.deepEqual(pairOptions(['a', 'b', 'a', ''], ['A', 'B', 'A', '']).map((c) => c.readable), ['A', 'B']);
  });

  it('keeps raw text where two different raw options would read the same', () => {
    const pairs = pairOptions(['x1', 'x2', 'y'], ['same', 'same', 'Y']);
    assert.deepEqual(pairs, [{ readable: 'x1', raw: 'x1' }, { readable: 'x2', raw: 'x2' }, { readable: 'Y', raw: 'y' }]);
  });
});
