import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pngOf, scannedSignaturePng } from '../signing/support.js';
import { MAX_SIGNATURE_BYTES } from '../../src/domain/signing/signature-image.js';

// The module is a browser script (type-checked by tsconfig.pages.json, with the DOM); these functions
// of it use no DOM, so Node runs them. Its path is built so that this file's check does not follow it.
const MODULE = '../../src/http/pages/sign/assets/adopt-signature.js';
interface Raster { width: number; height: number; data: Uint8ClampedArray }
const { clearBackground, imageHeader, initialsOf, shrinkToFit } = (await import(MODULE)) as {
  clearBackground(data: Uint8ClampedArray): number;
  shrinkToFit(r: Raster, maxBytes: number, encodedBytes: (r: Raster) => number, resize: (r: Raster, width: number, height: number) => Raster): Raster;
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

describe('adopting a signature: the PNG fits the server\'s limit', () => {
  // The page's encoder and scaler are the canvas's; here, an RGBA PNG (deflated rows) and nearest-neighbour.
  const encoded = (r: Raster): number => {
    const rows: Buffer[] = [];
    for (let y = 0; y < r.height; y++) rows.push(Buffer.concat([Buffer.from([0]), Buffer.from(r.data.buffer, r.data.byteOffset + y * r.width * 4, r.width * 4)]));
    return pngOf(r.width, r.height, 6, rows).length;
  };
  const nearest = (r: Raster, width: number, height: number): Raster => {
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const from = (Math.floor(y * r.height / height) * r.width + Math.floor(x * r.width / width)) * 4;
        data.set(r.data.subarray(from, from + 4), (y * width + x) * 4);
      }
    }
    return { width, height, data };
  };
  /** A photo's worst case: 1200×600 of noise, its alpha partial everywhere. */
  const noisy = (): Raster => {
    let seed = 7;
    const data = new Uint8ClampedArray(1200 * 600 * 4);
    for (let i = 0; i < data.length; i++) {
      seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
      data[i] = seed & 0xff;
    }
    return { width: 1200, height: 600, data };
  };

  it('a noisy photo over the limit is scaled down (alpha hardened) until it fits, keeping its shape', () => {
    const photo = noisy();
    assert.ok(encoded(photo) > MAX_SIGNATURE_BYTES, `the photo encodes to ${encoded(photo)} bytes`);
    const fitted = shrinkToFit(photo, MAX_SIGNATURE_BYTES, encoded, nearest);
    const bytes = encoded(fitted);
    assert.ok(bytes <= MAX_SIGNATURE_BYTES, `${bytes} bytes`);
    // Not shrunk to nothing: about as large as the limit allows (noise at 4 bytes a pixel, less 10% a step).
    assert.ok(fitted.width >= 200 && bytes > MAX_SIGNATURE_BYTES / 3, `${fitted.width}×${fitted.height}, ${bytes} bytes`);
    assert.ok(Math.abs(fitted.width / fitted.height - 2) < 0.05, `${fitted.width}×${fitted.height}`);
    for (let i = 3; i < fitted.data.length; i += 4) assert.ok(fitted.data[i] === 0 || fitted.data[i] === 255, 'alpha is hard');
    assert.equal(photo.data[3], noisy().data[3], 'the original is not changed');
  });

  it('an image that fits is returned as it is', () => {
    const small: Raster = { width: 40, height: 20, data: new Uint8ClampedArray(40 * 20 * 4).fill(128) };
    assert.equal(shrinkToFit(small, MAX_SIGNATURE_BYTES, encoded, nearest), small);
  });
});
