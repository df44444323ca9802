import { inflateSync } from 'node:zlib';
import type { AttachmentType } from '../../../pdf/field.js';

// The field's rules and bound, for the pages that show and take attachments.
export { attachmentRules, MAX_ATTACHMENT_BYTES } from '../../../pdf/field.js';

// Pure: what a file a signer attaches is, by its content (never its name or the type the browser
// claims), and whether an image is one the seal can draw without a decompression bomb (issue 41).

/** The most pixels an attached image may have (a 40-megapixel photo; far beyond any phone's). */
export const MAX_IMAGE_PIXELS = 40_000_000;
const MAX_IMAGE_SIDE = 20_000;
/** How far into the file a PDF's header may start (as readers allow). */
const PDF_HEADER_WINDOW = 1024;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The file's type by its first bytes; undefined for anything but PDF, PNG and JPEG. */
export function sniffAttachmentType(bytes: Uint8Array): AttachmentType | undefined {
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (Buffer.from(bytes.subarray(0, PDF_HEADER_WINDOW)).includes('%PDF-')) return 'application/pdf';
  return undefined;
}

export const EXTENSIONS: Readonly<Record<AttachmentType, string>> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg' };

/** A short name for people: "PDF", "PNG", "JPEG". */
export function typeWord(type: AttachmentType): string {
  return EXTENSIONS[type] === 'jpg' ? 'JPEG' : EXTENSIONS[type].toUpperCase();
}

/**
 * Why an image cannot be attached (a phrase), or undefined when it can: its size is read from its
 * header and bounded, and a PNG's pixel data must inflate to no more than those pixels need.
 */
export function imageProblem(type: 'image/png' | 'image/jpeg', bytes: Uint8Array, limits: ImageLimits = ATTACHMENT_LIMITS): string | undefined {
  const size = type === 'image/png' ? pngSize(bytes) : jpegSize(bytes);
  if (!size) return 'is not a readable image';
  if (size.width < 1 || size.height < 1 || size.width > limits.maxSide || size.height > limits.maxSide || size.width * size.height > limits.maxPixels) {
    return `is ${size.width}×${size.height} pixels; images of at most ${limits.said} are taken`;
  }
  if (type === 'image/png') return pngDataProblem(bytes, size);
  return undefined;
}

/** How large an image may be: its longer side, its pixels, and how the refusal says it. */
export interface ImageLimits { readonly maxSide: number; readonly maxPixels: number; readonly said: string }

const ATTACHMENT_LIMITS: ImageLimits = { maxSide: MAX_IMAGE_SIDE, maxPixels: MAX_IMAGE_PIXELS, said: `${MAX_IMAGE_PIXELS / 1_000_000} megapixels` };

interface Size { width: number; height: number; bitDepth?: number; colourType?: number }

function pngSize(b: Uint8Array): Size | undefined {
  if (b.length < 33) return undefined;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (String.fromCharCode(...b.subarray(12, 16)) !== 'IHDR') return undefined;
  return { width: v.getUint32(16), height: v.getUint32(20), bitDepth: b[24]!, colourType: b[25]! };
}

const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** The IDAT stream inflated with a bound of what the declared pixels need (interlacing adds a little). */
function pngDataProblem(b: Uint8Array, size: Size): string | undefined {
  const channels = CHANNELS[size.colourType ?? -1];
  if (!channels || ![1, 2, 4, 8, 16].includes(size.bitDepth ?? 0)) return 'is not a readable image';
  const rowBytes = Math.ceil((size.width * channels * size.bitDepth!) / 8) + 1;
  const bound = rowBytes * size.height * 2 + 1024;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const parts: Uint8Array[] = [];
  for (let at = 8; at + 8 <= b.length;) {
    const length = v.getUint32(at);
    const kind = String.fromCharCode(...b.subarray(at + 4, at + 8));
    if (at + 12 + length > b.length) return 'is cut short';
    if (kind === 'IDAT') parts.push(b.subarray(at + 8, at + 8 + length));
    if (kind === 'IEND') break;
    at += 12 + length;
  }
  if (parts.length === 0) return 'has no image data';
  try {
    inflateSync(Buffer.concat(parts), { maxOutputLength: bound });
  } catch {
    return 'has image data that does not unpack to its declared size';
  }
  return undefined;
}

function jpegSize(b: Uint8Array): Size | undefined {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = (b[at + 2]! << 8) | b[at + 3]!;
    // Start of frame (baseline, progressive, …), not DHT (C4), JPG (C8) or DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (b[at + 5]! << 8) | b[at + 6]!, width: (b[at + 7]! << 8) | b[at + 8]! };
    }
    at += 2 + length;
  }
  return undefined;
}

/** The file's name as the signer's browser gave it, made safe to show and to put in a header. */
export function cleanFilename(raw: string | undefined, type: AttachmentType): string {
  let name = '';
  try {
    name = raw ? decodeURIComponent(raw) : '';
  } catch {
    name = raw ?? '';
  }
  // The last path segment only; no control characters, quotes or backslashes (Content-Disposition).
  name = (name.split(/[/\\]/).at(-1) ?? '').replace(/[\u0000-\u001f\u007f"\\]/g, '').trim();
  name = [...name].slice(0, 200).join('');
  return name || `attachment.${EXTENSIONS[type]}`;
}
