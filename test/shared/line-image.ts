// One line of text as an ink map (grey levels turned into 0 = paper … 1 = ink), to compare two
// renderings of the same string made by different engines (poppler's of a PDF, Chromium's of a page)
// glyph cluster by glyph cluster: both are cropped to their ink, brought to one size, and compared
// window by window from left to right, each window allowed to slide a little (kerning and hinting
// differ between engines; the order of the glyphs must not).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

export interface InkMap { width: number; height: number; ink: Float32Array }

/** A PGM (P5, 8-bit) as pdftoppm -gray writes it. */
export function inkOfPgm(pgm: Buffer): InkMap {
  let at = 0;
  const fields: string[] = [];
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(pgm[at]!))) at++;
    let word = '';
    while (!/\s/.test(String.fromCharCode(pgm[at]!))) word += String.fromCharCode(pgm[at++]!);
    fields.push(word);
  }
  at++;
  assert.equal(fields[0], 'P5', 'a binary greymap');
  const [width, height] = [Number(fields[1]), Number(fields[2])];
  const ink = new Float32Array(width * height);
  for (let i = 0; i < ink.length; i++) ink[i] = (255 - pgm[at + i]!) / 255;
  return { width, height, ink };
}

/** Part of a PDF page (PDF points from its top left) as poppler draws it, at `dpi`. */
export function renderPdfBox(file: string, page: number, box: { x: number; y: number; width: number; height: number }, dpi: number): InkMap {
  const k = dpi / 72;
  const args = ['-gray', '-r', String(dpi), '-f', String(page), '-l', String(page),
    '-x', String(Math.round(box.x * k)), '-y', String(Math.round(box.y * k)), '-W', String(Math.round(box.width * k)), '-H', String(Math.round(box.height * k)), file];
  const run = spawnSync('pdftoppm', args, { maxBuffer: 64 << 20 });
  assert.equal(run.status, 0, run.stderr.toString());
  return inkOfPgm(run.stdout);
}

/** The smallest part holding all ink darker than half. */
export function cropToInk(m: InkMap): InkMap {
  let [x0, y0, x1, y1] = [m.width, m.height, -1, -1];
  for (let y = 0; y < m.height; y++) {
    for (let x = 0; x < m.width; x++) {
      if (m.ink[y * m.width + x]! < 0.5) continue;
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
  }
  assert.ok(x1 >= x0, 'some ink');
  const width = x1 - x0 + 1;
  const height = y1 - y0 + 1;
  const ink = new Float32Array(width * height);
  for (let y = 0; y < height; y++) ink.set(m.ink.subarray((y + y0) * m.width + x0, (y + y0) * m.width + x0 + width), y * width);
  return { width, height, ink };
}

/** `m` resampled to `width` × `height` (each new pixel the mean of the old ones it covers). */
export function resize(m: InkMap, width: number, height: number): InkMap {
  const ink = new Float32Array(width * height);
  const [kx, ky] = [m.width / width, m.height / height];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [sx0, sx1] = [Math.floor(x * kx), Math.max(Math.floor(x * kx) + 1, Math.floor((x + 1) * kx))];
      const [sy0, sy1] = [Math.floor(y * ky), Math.max(Math.floor(y * ky) + 1, Math.floor((y + 1) * ky))];
      let sum = 0;
      let n = 0;
      for (let sy = sy0; sy < Math.min(sy1, m.height); sy++) for (let sx = sx0; sx < Math.min(sx1, m.width); sx++) { sum += m.ink[sy * m.width + sx]!; n++; }
      ink[y * width + x] = n ? sum / n : 0;
    }
  }
  return { width, height, ink };
}

/** A 5 × 5 box blur: strokes one or two pixels apart still overlap. */
function blur(m: InkMap): InkMap {
  const ink = new Float32Array(m.ink.length);
  for (let y = 0; y < m.height; y++) {
    for (let x = 0; x < m.width; x++) {
      let sum = 0;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) {
        const [sx, sy] = [x + dx, y + dy];
        if (sx >= 0 && sy >= 0 && sx < m.width && sy < m.height) sum += m.ink[sy * m.width + sx]!;
      }
      ink[y * m.width + x] = sum / 25;
    }
  }
  return { ...m, ink };
}

export interface LineComparison {
  /** The other rendering's width over the reference's, both at the reference's ink height. */
  widthRatio: number;
  /** The worst window's difference (0: the same ink, 1: none in common) and where it starts, in reference pixels. */
  worst: number;
  worstAt: number;
}

/**
 * Compares `other` with `reference`, both lines of the same text: cropped to ink, `other` scaled to
 * the reference's size, then windows 0.6 line-heights wide, from left to right, each compared with
 * the same place in `other` shifted by up to a quarter of the line height, the best shift kept.
 */
export function compareLines(reference: InkMap, other: InkMap): LineComparison {
  const ref = cropToInk(reference);
  const raw = cropToInk(other);
  const widthRatio = (raw.width * (ref.height / raw.height)) / ref.width;
  const [a, b] = [blur(ref), blur(resize(raw, ref.width, ref.height))];
  const win = Math.max(4, Math.round(ref.height * 0.6));
  const slide = Math.round(ref.height * 0.25);
  let worst = 0;
  let worstAt = 0;
  for (let x0 = 0; x0 + win <= a.width || x0 === 0; x0 += Math.max(1, Math.round(win / 3))) {
    let best = 1;
    for (let dx = -slide; dx <= slide; dx++) {
      let diff = 0;
      let total = 0;
      for (let y = 0; y < a.height; y++) {
        for (let x = x0; x < Math.min(a.width, x0 + win); x++) {
          const p = a.ink[y * a.width + x]!;
          const bx = x + dx;
          const q = bx >= 0 && bx < b.width ? b.ink[y * b.width + bx]! : 0;
          diff += Math.abs(p - q);
          total += p + q;
        }
      }
      if (total > 0) best = Math.min(best, diff / total);
      else best = 0;
    }
    if (best > worst) { worst = best; worstAt = x0; }
    if (x0 + win >= a.width) break;
  }
  return { widthRatio, worst, worstAt };
}
