// The accent colour carries white text (buttons) and is itself text on the pages' light backgrounds
// (links on white, on the signing page's light grey #eef0f5, on its own 8% wash), so it must reach
// WCAG's 4.5:1 against each of them. A lighter colour is not refused: it is darkened — its HSL lightness
// lowered, hue and saturation kept, to the lightest value that reads on all of them (found by
// bisection) — so the brand stays recognisable and every page and e-mail stays readable. Pure; unit-tested.

export const MIN_CONTRAST = 4.5;

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** `#rgb` or `#rrggbb` (any case) → its channels; null for anything else. */
export function parseHexColour(text: string): Rgb | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim());
  if (!m) return null;
  const hex = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return { r: parseInt(hex.slice(0, 2), 16), g: parseInt(hex.slice(2, 4), 16), b: parseInt(hex.slice(4, 6), 16) };
}

export function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG 2 relative luminance. */
function luminance({ r, g, b }: Rgb): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The contrast ratio of a colour against white (1–21). */
export function contrastOnWhite(c: Rgb): number {
  return 1.05 / (luminance(c) + 0.05);
}

/** The contrast ratio of two colours (1–21). */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The accent's wash: the colour at 8% on white (selected tabs, badges, the quote's border side). */
export function washOf(c: Rgb): Rgb {
  return { r: Math.round(255 - (255 - c.r) * 0.08), g: Math.round(255 - (255 - c.g) * 0.08), b: Math.round(255 - (255 - c.b) * 0.08) };
}

/** The signing page's body background (sign.css), the darkest light background accent text sits on (the e-mails' is #f4f5f7). */
const LIGHT_GREY: Rgb = { r: 0xee, g: 0xf0, b: 0xf5 };

/** Whether the colour reads (4.5:1) on white, on the light grey and on its own wash. */
export function readsOnPages(c: Rgb): boolean {
  return contrastOnWhite(c) >= MIN_CONTRAST && contrast(c, LIGHT_GREY) >= MIN_CONTRAST && contrast(c, washOf(c)) >= MIN_CONTRAST;
}

function toHsl({ r, g, b }: Rgb): { h: number; s: number; l: number } {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const l = (max + min) / 2;
  if (max === min) return { h: 0, s: 0, l };
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === R ? ((G - B) / d + (G < B ? 6 : 0)) / 6 : max === G ? ((B - R) / d + 2) / 6 : ((R - G) / d + 4) / 6;
  return { h, s, l };
}

function fromHsl({ h, s, l }: { h: number; s: number; l: number }): Rgb {
  if (s === 0) return { r: l * 255, g: l * 255, b: l * 255 };
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t0: number) => {
    const t = t0 < 0 ? t0 + 1 : t0 > 1 ? t0 - 1 : t0;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return { r: channel(h + 1 / 3) * 255, g: channel(h) * 255, b: channel(h - 1 / 3) * 255 };
}

export interface AccentChoice {
  /** The colour used, `#rrggbb`. */
  color: string;
  /** The colour given, normalised to `#rrggbb`. */
  requested: string;
  adjusted: boolean;
  /** Contrast against white of the colour used, rounded down to two decimals. */
  contrast: number;
  requestedContrast: number;
}

/** The colour to use for a requested accent: itself when it reads on the pages' backgrounds, else darkened until it does. */
export function accentFor(requested: Rgb): AccentChoice {
  const given = toHex(requested);
  const base = parseHexColour(given)!;
  const floor2 = (n: number) => Math.floor(n * 100) / 100;
  const before = contrastOnWhite(base);
  if (readsOnPages(base)) return { color: given, requested: given, adjusted: false, contrast: floor2(before), requestedContrast: floor2(before) };
  const hsl = toHsl(base);
  // Bisection on lightness: lo always passes (0 is black, 21:1), hi always fails.
  let lo = 0;
  let hi = hsl.l;
  let best = parseHexColour(toHex(fromHsl({ ...hsl, l: 0 })))!;
  for (let i = 0; i < 24; i++) {
    const mid = (lo + hi) / 2;
    const candidate = parseHexColour(toHex(fromHsl({ ...hsl, l: mid })))!;
    if (readsOnPages(candidate)) {
      lo = mid;
      best = candidate;
    } else {
      hi = mid;
    }
  }
  return { color: toHex(best), requested: given, adjusted: true, contrast: floor2(contrastOnWhite(best)), requestedContrast: floor2(before) };
}
