// Adopting a signature on the signing page (issue 43 item 7), loaded by sign.ts for its dialog: the
// typed name's styles (outlines the server draws: src/pdf/signature-style says why there), initials
// derived from the name, and an uploaded image made into a signature (type and size checked, light
// background made transparent, scaled down). Everything ends as a canvas: sign.ts sends every
// signature as the same PNG, so the seal draws a typed, drawn or uploaded one the same way.

import type { AdoptConfig } from '../page-config.js';

/** One style of the typed name: its outlines in a box of width × height (y down). */
export interface StyleOutline { id: string; face: string; d: string; width: number; height: number }

const INK = '#1a237e';
const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Initials from a name: the first letter of each word, upper-cased, at most three (a long name's
 * first two and last). Script-aware: a Chinese, Japanese or Korean name is not written with spaces
 * and its "initials" are not a custom, so the family name (the first word, else the first character)
 * stands for them; Arabic and Hebrew have no letter case and take each word's first letter as it is,
 * joined without dots (Arabic letters apart, so they do not join into a word that was never written).
 */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/u).filter(Boolean);
  if (words.length === 0) return '';
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(name)) {
    return words.length > 1 ? words[0]! : [...words[0]!][0]!;
  }
  const picked = words.length > 3 ? [words[0]!, words[1]!, words[words.length - 1]!] : words;
  const firsts = picked.map((w) => [...w.replace(/^[^\p{L}]+/u, '')][0] ?? '').filter(Boolean);
  if (/\p{Script=Arabic}/u.test(name)) return firsts.join(' ');
  return firsts.map((c) => c.toLocaleUpperCase()).join('');
}

/** Paints `style` in `canvas`, centred and as large as fits with a margin. */
export function paintOutline(canvas: HTMLCanvasElement, style: StyleOutline): void {
  const ctx = canvas.getContext('2d')!;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (!style.d || style.width <= 0 || style.height <= 0) return;
  const margin = 30;
  const k = Math.min((canvas.width - 2 * margin) / style.width, (canvas.height - 2 * margin) / style.height);
  ctx.setTransform(k, 0, 0, k, (canvas.width - style.width * k) / 2, (canvas.height - style.height * k) / 2);
  ctx.fillStyle = INK;
  ctx.fill(new Path2D(style.d));
  ctx.setTransform(1, 0, 0, 1, 0, 0);
}

/**
 * The styles of typed names, asked of the server once per text (kept: typing back and forth, and the
 * initials applied to every initials field, ask nothing twice).
 */
export class TypedStyles {
  private readonly cache = new Map<string, Promise<StyleOutline[]>>();
  constructor(private readonly url: string) {}

  of(text: string): Promise<StyleOutline[]> {
    const key = text.trim();
    let styles = this.cache.get(key);
    if (!styles) {
      styles = fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-formsign-signing': '1' },
        credentials: 'same-origin',
        body: JSON.stringify({ text: key }),
      }).then(async (res) => {
        if (!res.ok) throw new Error(`the styles answered ${res.status}`);
        return ((await res.json()) as { styles: StyleOutline[] }).styles;
      });
      styles.catch(() => this.cache.delete(key));
      this.cache.set(key, styles);
    }
    return styles;
  }

  /** `text` in the style `id` (or the first there is, when the text's script has no such style). */
  async outline(text: string, id: string | null): Promise<StyleOutline | null> {
    const styles = await this.of(text);
    return styles.find((s) => s.id === id) ?? styles[0] ?? null;
  }
}

/**
 * The style choices as radio buttons, each showing the name in that style (an inline SVG of the
 * outlines, named by the typeface for screen readers). Keeps the choice when the name changes.
 */
export function showStyleChoices(list: HTMLElement, styles: readonly StyleOutline[], chosen: string | null, onPick: (id: string) => void): string | null {
  const keep = styles.some((s) => s.id === chosen) ? chosen : (styles[0]?.id ?? null);
  list.replaceChildren(...styles.map((s) => {
    const label = document.createElement('label');
    label.className = 'sig-style';
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = 'sig-style';
    input.value = s.id;
    input.checked = s.id === keep;
    input.addEventListener('change', () => onPick(s.id));
    const svg = document.createElementNS(SVG_NS, 'svg');
    const pad = s.height * 0.15;
    svg.setAttribute('viewBox', `${-pad} ${-pad} ${s.width + 2 * pad} ${s.height + 2 * pad}`);
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    const path = document.createElementNS(SVG_NS, 'path');
    path.setAttribute('d', s.d);
    path.setAttribute('fill', INK);
    svg.append(path);
    const name = document.createElement('span');
    name.className = 'sig-style-name';
    name.textContent = s.face;
    label.append(input, svg, name);
    return label;
  }));
  return keep;
}

// ---------- upload ----------

/** An upload refused: `key` names the words (adopt-words.ts) that say why. */
export class UploadRefused extends Error {
  constructor(readonly key: 'uploadType' | 'uploadTooBig' | 'uploadTooManyPixels' | 'uploadUnreadable') {
    super(key);
  }
}

/** The largest signature image kept (the same bounds as a drawn one: sign.ts cropped()). */
const MAX_OUT = { width: 1200, height: 600 };

/** PNG or JPEG by their first bytes (a file's name and type are only claims), with the size its header declares. */
export function imageHeader(bytes: Uint8Array): { type: 'png' | 'jpeg'; width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) {
    return { type: 'png', width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    // The frame header (SOF0–SOF15 but DHT, JPG and DAC) carries the size; markers are walked to it.
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) return null;
      const marker = bytes[i + 1]!;
      if (marker === 0xff) { i++; continue; }
      const length = view.getUint16(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { type: 'jpeg', height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
      }
      i += 2 + length;
    }
  }
  return null;
}

/**
 * Paper is never pure white in a photo: a pixel whose every channel is at least `LIGHT` becomes
 * transparent, and a band below it (to `SOFT`) fades, so the stroke's anti-aliased edge stays smooth.
 */
const LIGHT = 215;
const SOFT = 170;

/** Near-white pixels of RGBA `data` made transparent, in place; returns how many became fully transparent. */
export function clearBackground(data: Uint8ClampedArray): number {
  let cleared = 0;
  for (let i = 0; i < data.length; i += 4) {
    const lightest = Math.min(data[i]!, data[i + 1]!, data[i + 2]!);
    if (lightest >= LIGHT) {
      data[i + 3] = 0;
      cleared++;
    } else if (lightest > SOFT) {
      data[i + 3] = Math.round(data[i + 3]! * (LIGHT - lightest) / (LIGHT - SOFT));
    }
  }
  return cleared;
}

/** An uploaded file as a signature: checked, decoded at a bounded size, its light background cleared. */
export async function readUpload(file: File, limits: AdoptConfig['limits']): Promise<HTMLCanvasElement> {
  if (file.size > limits.bytes) throw new UploadRefused('uploadTooBig');
  const head = imageHeader(new Uint8Array(await file.slice(0, 64 * 1024).arrayBuffer()));
  if (!head) throw new UploadRefused('uploadType');
  if (head.width < 1 || head.height < 1) throw new UploadRefused('uploadUnreadable');
  if (head.width * head.height > limits.pixels) throw new UploadRefused('uploadTooManyPixels');
  const scale = Math.min(1, MAX_OUT.width / head.width, MAX_OUT.height / head.height);
  const width = Math.max(1, Math.round(head.width * scale));
  const height = Math.max(1, Math.round(head.height * scale));
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { resizeWidth: width, resizeHeight: height, resizeQuality: 'high' });
  } catch {
    throw new UploadRefused('uploadUnreadable');
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const pixels = ctx.getImageData(0, 0, width, height);
  clearBackground(pixels.data);
  ctx.putImageData(pixels, 0, 0);
  return canvas;
}

// ---------- fitting the server's size limit ----------

/** RGBA pixels, row by row: what a canvas's getImageData gives. */
export interface Raster { width: number; height: number; data: Uint8ClampedArray }

/** Alpha made fully opaque or fully transparent, in place: a photo's soft, noisy edges cost PNG bytes. */
export function hardenAlpha(data: Uint8ClampedArray): void {
  for (let i = 3; i < data.length; i += 4) data[i] = data[i]! >= 128 ? 255 : 0;
}

/**
 * `raster` made to encode in at most `maxBytes` (the server's MAX_SIGNATURE_BYTES, passed in the page's
 * config): as it is when it fits; else its alpha hardened; else scaled down, by the square root of
 * the excess with a tenth to spare, until it fits (a photo scaled to 1200×600 with partial alpha can
 * encode to more than the limit, and the signer would learn it only at Finish). `encodedBytes` and
 * `resize` are the canvas's in the page; a test gives its own.
 */
export function shrinkToFit(raster: Raster, maxBytes: number, encodedBytes: (r: Raster) => number, resize: (r: Raster, width: number, height: number) => Raster): Raster {
  let bytes = encodedBytes(raster);
  if (bytes <= maxBytes) return raster;
  let r: Raster = { width: raster.width, height: raster.height, data: new Uint8ClampedArray(raster.data) };
  hardenAlpha(r.data);
  bytes = encodedBytes(r);
  for (let tries = 0; bytes > maxBytes && tries < 12 && (r.width > 1 || r.height > 1); tries++) {
    const k = Math.min(0.9, Math.sqrt(maxBytes / bytes) * 0.9);
    r = resize(r, Math.max(1, Math.floor(r.width * k)), Math.max(1, Math.floor(r.height * k)));
    hardenAlpha(r.data);
    bytes = encodedBytes(r);
  }
  return r;
}

/** Bytes of a data: URL's base64 payload, decoded. */
const dataUrlBytes = (url: string): number => {
  const b64 = url.slice(url.indexOf(',') + 1);
  return Math.floor(b64.length * 3 / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);
};

const canvasOf = (r: Raster): HTMLCanvasElement => {
  const c = document.createElement('canvas');
  c.width = r.width;
  c.height = r.height;
  c.getContext('2d')!.putImageData(new ImageData(new Uint8ClampedArray(r.data), r.width, r.height), 0, 0);
  return c;
};

/** A signature canvas whose PNG the server takes (at most `maxBytes`): `canvas` itself when it does. */
export function fitSignature(canvas: HTMLCanvasElement, maxBytes: number): HTMLCanvasElement {
  if (dataUrlBytes(canvas.toDataURL('image/png')) <= maxBytes) return canvas;
  const raster = canvas.getContext('2d', { willReadFrequently: true })!.getImageData(0, 0, canvas.width, canvas.height);
  const fitted = shrinkToFit(raster, maxBytes, (r) => dataUrlBytes(canvasOf(r).toDataURL('image/png')), (r, width, height) => {
    const out = document.createElement('canvas');
    out.width = width;
    out.height = height;
    const ctx = out.getContext('2d', { willReadFrequently: true })!;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(canvasOf(r), 0, 0, width, height);
    return ctx.getImageData(0, 0, width, height);
  });
  return canvasOf(fitted);
}
