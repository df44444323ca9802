import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scannedSignaturePng } from '../signing/support.js';

// The module is a browser script (type-checked by tsconfig.pages.json, with the DOM); these functions
// of it use no DOM, so Node runs them. Its path is built so that this file's check does not follow it.
const MODULE = '../../src/http/pages/sign/assets/adopt-signature.js';
const { clearBackground, imageHeader, initialsOf } = (await import(MODULE)) as {
  clearBackground(data: Uint8ClampedArray): number;
  imageHeader(bytes: Uint8Array): { type: 'png' | 'jpeg'; width: number; height: number } | null;
  initialsOf(name: string): string;
};

// The pure parts of adopting a signature (issue 43 item 7) the browser runs: initials derived from a
// name by script, an upload known by its bytes (not its name), and the paper made transparent.

describe('adopting a signature: initials', () => {
  it('Latin, Cyrillic and Greek: each word\'s first letter, upper-cased, at most three', () => {
    assert.equal(initialsOf('Ada Lovelace'), 'AL');
    assert.equal(initialsOf('  jean-luc   picard '), 'JP');
    assert.equal(initialsOf('María José de la Cruz Pérez'), 'MJP');
    assert.equal(initialsOf('Иван Петров'), 'ИП');
    assert.equal(initialsOf('(Ada) Byron'), 'AB');
    assert.equal(initialsOf(''), '');
  });
  it('Arabic and Hebrew: first letters as they are; Arabic ones apart so they do not join', () => {
    assert.equal(initialsOf('محمد عبد الله'), 'م ع ا');
    assert.equal(initialsOf('דנה לוי'), 'דל');
  });
  it('Chinese, Japanese, Korean: the family name (the first word, else the first character)', () => {
    assert.equal(initialsOf('王小明'), '王');
    assert.equal(initialsOf('山田 太郎'), '山田');
    assert.equal(initialsOf('김민준'), '김');
  });
});

describe('adopting a signature: uploads', () => {
  it('knows PNG and JPEG by their bytes, with the size their header declares', () => {
    assert.deepEqual(imageHeader(scannedSignaturePng(400, 160)), { type: 'png', width: 400, height: 160 });
    // SOI, an APP0 segment, then SOF0 (height 120, width 300).
    const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x78, 0x01, 0x2c, 0x03, 0, 0, 0, 0]);
    assert.deepEqual(imageHeader(jpeg), { type: 'jpeg', width: 300, height: 120 });
    assert.equal(imageHeader(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')), null);
    assert.equal(imageHeader(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), null);
  });
  it('paper becomes transparent, ink stays, the edge in between fades', () => {
    const px = (r: number, g: number, b: number) => [r, g, b, 255];
    const data = Uint8ClampedArray.from([...px(250, 250, 250), ...px(220, 230, 225), ...px(25, 30, 80), ...px(190, 195, 200), ...px(255, 255, 255)]);
    assert.equal(clearBackground(data), 3);
    assert.deepEqual([data[3], data[7], data[11], data[19]], [0, 0, 255, 0]);
    assert.ok(data[15]! > 0 && data[15]! < 255, `a light grey edge is half transparent: ${data[15]}`);
  });
});
