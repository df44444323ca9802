// Fonts for filled values. Latin-1 text uses the standard Helvetica (nothing to embed, like most
// form defaults); anything else gets a subset of a bundled font chosen by glyph coverage:
// DejaVu Sans (Latin Extended, Greek, Cyrillic, Arabic, Hebrew, symbols such as ✓), Noto Sans JP (kana
// and kanji), Noto Sans Hans (simplified and traditional Chinese) or Noto Sans KR (Hangul). Font files
// are read and parsed once per process, on first use, then shared by every document.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import fontkit, { type Font as FontkitFont } from '@cantoo/fontkit';
import { StandardFonts, type PDFDocument, type PDFFont } from '@cantoo/pdf-lib';
import { ValueFont, type Candidate } from './value-font.js';

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];

export type FaceId = 'helvetica' | 'dejavu-sans' | 'noto-sans-jp' | 'noto-sans-sc' | 'noto-sans-kr';
type CustomFaceId = Exclude<FaceId, 'helvetica'>;

const require = createRequire(import.meta.url);
// The @embedpdf packages export only their index, so their files are found beside its entry point.
const besideEntry = (pkg: string, file: string) => () => path.join(path.dirname(require.resolve(pkg)), '..', file);
const FILES: Record<CustomFaceId, () => string> = {
  'dejavu-sans': () => require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  'noto-sans-jp': () => require.resolve('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf'),
  'noto-sans-sc': besideEntry('@embedpdf/fonts-sc', 'fonts/NotoSansHans-Regular.otf'),
  'noto-sans-kr': besideEntry('@embedpdf/fonts-kr', 'fonts/NotoSansKR-Regular.otf'),
};

interface LoadedFace { bytes: Uint8Array; font: FontkitFont }
const loading = new Map<CustomFaceId, Promise<LoadedFace>>();
const parsedByBytes = new WeakMap<Uint8Array, FontkitFont>();

function loadFace(id: CustomFaceId): Promise<LoadedFace> {
  let face = loading.get(id);
  if (!face) {
    face = readFile(FILES[id]()).then((buf) => {
      const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      const font = fontkit.create(bytes) as FontkitFont;
      keepCodePoints(font);
      parsedByBytes.set(bytes, font);
      return { bytes, font };
    });
    face.catch(() => loading.delete(id));
    loading.set(id, face);
  }
  return face;
}

/**
 * fontkit caches a glyph with the characters of whoever asked for it first, and a subset being saved
 * asks for the parts of composite glyphs (the o of ó) with none. pdf-lib builds each document's
 * ToUnicode map from those characters, so with the parsed font shared, every later document would
 * lose that letter to copy, search and screen readers. A later request that knows the characters fills them in.
 */
function keepCodePoints(font: FontkitFont): void {
  const getGlyph = font.getGlyph.bind(font);
  font.getGlyph = (id: number, codePoints?: number[]) => {
    const glyph = getGlyph(id, codePoints);
    if (glyph && glyph.codePoints.length === 0 && codePoints && codePoints.length > 0) glyph.codePoints = codePoints;
    return glyph;
  };
}

// pdf-lib parses font bytes on every embedFont call; handing it a fontkit whose create() returns
// the already parsed font for our cached byte arrays makes embedding cost only the subset.
const cachingFontkit: Fontkit = {
  create: (bytes, postscriptName) => parsedByBytes.get(bytes)
    ?? (postscriptName === undefined ? fontkit.create(bytes) : fontkit.create(bytes, postscriptName)),
};

const WIN_ANSI_EXTRA = new Set([...'€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'].map((c) => c.codePointAt(0)));
const isLayoutChar = (cp: number): boolean => cp === 0x0a || cp === 0x0d || cp === 0x09;
const inWinAnsi = (cp: number): boolean => (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_EXTRA.has(cp);

/** True when the standard (WinAnsi) Helvetica can show all of `text`: nothing need be embedded. */
export function isWinAnsi(text: string): boolean {
  return codePoints(text).every(inWinAnsi);
}

function codePoints(text: string): number[] {
  return [...text].map((c) => c.codePointAt(0) ?? 0).filter((cp) => !isLayoutChar(cp));
}

const isKana = (cp: number): boolean => (cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x31f0 && cp <= 0x31ff) || (cp >= 0xff66 && cp <= 0xff9f);
const isHangul = (cp: number): boolean =>
  (cp >= 0xac00 && cp <= 0xd7ff) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f) || (cp >= 0xa960 && cp <= 0xa97f) || (cp >= 0xffa0 && cp <= 0xffdc);

/** How Han characters without kana or Hangul beside them are drawn: as Japanese, Chinese or Korean. */
export type HanStyle = 'ja' | 'zh' | 'ko';

const HAN_FIRST: Record<HanStyle, CustomFaceId[]> = {
  ja: ['dejavu-sans', 'noto-sans-jp', 'noto-sans-sc', 'noto-sans-kr'],
  zh: ['dejavu-sans', 'noto-sans-sc', 'noto-sans-jp', 'noto-sans-kr'],
  ko: ['dejavu-sans', 'noto-sans-kr', 'noto-sans-jp', 'noto-sans-sc'],
};

/**
 * The order faces are tried in. Han characters are shared by Chinese, Japanese and Korean but drawn
 * differently in each, so the script around them decides: kana means Japanese, Hangul Korean, and Han
 * alone follows the document (`han`). DejaVu comes first: its Latin and Greek are closer to the form's
 * own look.
 */
function preference(cps: readonly number[], han: HanStyle): CustomFaceId[] {
  if (cps.some(isHangul)) return HAN_FIRST.ko;
  if (cps.some(isKana)) return HAN_FIRST.ja;
  return HAN_FIRST[han];
}

/**
 * The document's Han style: its declared language (/Lang) if that is Japanese, Chinese or Korean; else
 * the script of its values, kana or Hangul anywhere deciding; else Japanese, whose face also covers
 * most traditional Chinese (simplified-only characters still go to the Chinese face by coverage).
 */
export function hanStyleOf(lang: string | undefined, texts: Iterable<string>): HanStyle {
  const declared = /^(ja|zh|ko)\b/i.exec(lang ?? '')?.[1]?.toLowerCase();
  if (declared) return declared as HanStyle;
  for (const text of texts) {
    const cps = codePoints(text);
    if (cps.some(isKana)) return 'ja';
    if (cps.some(isHangul)) return 'ko';
  }
  return 'ja';
}

/**
 * The first face in order of preference that can show all of `text`; failing that, the one that
 * shows the most (the rest are drawn as the font's blank glyph). Helvetica when it can show it all.
 */
export async function chooseFace(text: string, han: HanStyle = 'ja'): Promise<FaceId> {
  const cps = codePoints(text);
  if (cps.every(inWinAnsi)) return 'helvetica';
  let best: CustomFaceId = 'dejavu-sans';
  let bestCovered = -1;
  for (const id of preference(cps, han)) {
    const { font } = await loadFace(id);
    const covered = cps.filter((cp) => font.hasGlyphForCodePoint(cp)).length;
    if (covered === cps.length) return id;
    if (covered > bestCovered) { best = id; bestCovered = covered; }
  }
  return best;
}

/**
 * `font`, its widths remembered by text and size: line breaking measures the same words again and again
 * (each longer candidate line, then each run as it is drawn), and for an embedded face each measure is
 * a full layout of the text by fontkit. The same number every time, so nothing drawn changes.
 */
export function rememberingWidths<F extends PDFFont>(font: F): F {
  const widths = new Map<string, number>();
  const measure = font.widthOfTextAtSize.bind(font);
  font.widthOfTextAtSize = (text: string, size: number): number => {
    const key = `${size}\u0000${text}`;
    let width = widths.get(key);
    if (width === undefined) widths.set(key, (width = measure(text, size)));
    return width;
  };
  return font;
}

/** Per-document embedded fonts, each embedded (as a subset) at most once. */
export class DocumentFonts {
  private readonly embedded = new Map<FaceId, Promise<PDFFont>>();

  constructor(private readonly doc: PDFDocument, private readonly han: HanStyle = 'ja') {
    doc.registerFontkit(cachingFontkit);
  }

  face(id: FaceId): Promise<PDFFont> {
    let font = this.embedded.get(id);
    if (!font) {
      font = (id === 'helvetica'
        ? this.doc.embedFont(StandardFonts.Helvetica)
        : loadFace(id).then(({ bytes }) => this.doc.embedFont(bytes, { subset: true }))).then(rememberingWidths);
      this.embedded.set(id, font);
    }
    return font;
  }

  async forText(text: string): Promise<PDFFont> {
    return this.face(await chooseFace(text, this.han));
  }

  /**
   * The fonts `text` is drawn with: the face that shows most of it, and, for what that face lacks, the
   * other faces (in the same order of preference) that have some of it (value-font.ts cuts the runs).
   */
  async forValue(text: string): Promise<ValueFont> {
    const id = await chooseFace(text, this.han);
    const primary = await this.face(id);
    if (id === 'helvetica') return new ValueFont({ font: primary, has: inWinAnsi }, []);
    const main = (await loadFace(id)).font;
    const lacking = [...new Set(codePoints(text))].filter((cp) => !main.hasGlyphForCodePoint(cp));
    const others: Candidate[] = [];
    if (lacking.length > 0) {
      for (const other of preference(codePoints(text), this.han)) {
        if (other === id) continue;
        const font = (await loadFace(other)).font;
        if (lacking.some((cp) => font.hasGlyphForCodePoint(cp))) others.push({ font: await this.face(other), has: (cp) => font.hasGlyphForCodePoint(cp) });
      }
    }
    return new ValueFont({ font: primary, has: (cp) => main.hasGlyphForCodePoint(cp) }, others);
  }
}
