import { createHash } from 'node:crypto';
import { crc32, inflateSync } from 'node:zlib';
import { AppError } from '../errors.js';

// Pure: a signature or initials image as the signing page submits it, a PNG data URL, checked before
// a byte of it is stored. The page makes the PNG in the browser (drawn on the pad, or typed and
// rendered in the script font). The whole file is checked here — every chunk's CRC, and the image data
// inflating to exactly the pixels the header promises — because sealing draws it later, long after the
// signer has gone: an image that cannot be decoded then would leave the form unsealable.

const PREFIX = 'data:image/png;base64,';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Decoded bytes one image may have: a drawn signature at twice the pad's size is ~30–80 KB. */
export const MAX_SIGNATURE_BYTES = 256 * 1024;
/** Pixels on a side: more than any pad or typed rendering needs, small enough to draw cheaply. */
export const MAX_SIGNATURE_SIDE = 2400;

export type SignatureMethod = 'drawn' | 'typed';

export interface SignatureImage {
  png: Buffer;
  sha256: string;
  width: number;
  height: number;
  method: SignatureMethod;
}

/**
 * `{ image: "data:image/png;base64,…", method: "drawn" | "typed" }` → the PNG and its size, or a
 * `parameter_invalid` naming `param` that says what is wrong.
 */
export function parseSignatureImage(raw: unknown, param: string, what: string): SignatureImage {
  const bad = (message: string): AppError => new AppError('parameter_invalid', `${param} ${message}`, param);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad(`must be an object {image, method} (the ${what} as a PNG data URL).`);
  const { image, method, ...rest } = raw as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw new AppError('parameter_unknown', `Received unknown parameter '${param}.${extra}'.`, `${param}.${extra}`);
  if (method !== 'drawn' && method !== 'typed') throw bad('.method must be "drawn" or "typed".');
  if (typeof image !== 'string' || !image.startsWith(PREFIX)) throw bad(`.image must be a PNG data URL (data:image/png;base64,…).`);
  const b64 = image.slice(PREFIX.length);
  if (b64.length > Math.ceil(MAX_SIGNATURE_BYTES / 3) * 4) throw bad(`.image is larger than ${MAX_SIGNATURE_BYTES / 1024} KB.`);
  if (!BASE64.test(b64) || b64.length % 4 !== 0) throw bad('.image is not valid base64.');
  const png = Buffer.from(b64, 'base64');
  // Signature, then the IHDR chunk (length 13) whose first fields are the width and the height.
  if (png.length < 33 || !png.subarray(0, 8).equals(PNG_MAGIC) || png.toString('latin1', 12, 16) !== 'IHDR') throw bad('.image is not a PNG.');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (width < 1 || height < 1 || width > MAX_SIGNATURE_SIDE || height > MAX_SIGNATURE_SIDE) throw bad(`.image must be between 1 and ${MAX_SIGNATURE_SIDE} pixels on each side.`);
  if (!decodes(png, width, height)) throw bad('.image is not a complete PNG (8-bit, not interlaced), as a canvas makes.');
  return { png, sha256: createHash('sha256').update(png).digest('hex'), width, height, method };
}

/** Bytes per pixel of the 8-bit colour types a canvas can produce: grey, RGB, grey+alpha, RGBA. */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** Every chunk intact (length, CRC), IHDR first and IEND last, and IDAT inflating to exactly the image's rows. */
function decodes(png: Buffer, width: number, height: number): boolean {
  const bitDepth = png[24];
  const channels = CHANNELS[png[25] ?? -1];
  const interlace = png[28];
  if (bitDepth !== 8 || channels === undefined || interlace !== 0) return false;
  const idat: Buffer[] = [];
  let at = 8;
  let ended = false;
  while (at + 12 <= png.length && !ended) {
    const length = png.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > png.length) return false;
    const typeAndData = png.subarray(at + 4, at + 8 + length);
    if (crc32(typeAndData) !== png.readUInt32BE(at + 8 + length)) return false;
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    ended = type === 'IEND';
    at = end;
  }
  if (!ended || at !== png.length || idat.length === 0) return false;
  const expected = height * (1 + width * channels);
  try {
    const raw = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
    if (raw.length !== expected) return false;
    // Each row starts with its filter type, 0–4.
    for (let row = 0; row < height; row++) if (raw[row * (1 + width * channels)]! > 4) return false;
    return true;
  } catch {
    return false;
  }
}
