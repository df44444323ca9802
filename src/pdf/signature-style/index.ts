// Typed signatures (issue 43 item 7): a name drawn in one of three handwriting or calligraphic styles
// of its script, as glyph outlines (SVG path data). Rendered here, on the server, with fontkit: it
// shapes Arabic (joining forms, ligatures) and the bidi layout every drawn text goes through puts
// right-to-left runs in visual order. So the signer's phone downloads a few KB of path data, never a
// font — the Chinese, Japanese and Korean faces are 15–21 MB each — and every browser shows the same
// shapes: the page paints exactly these outlines into the signature image it submits.
//
// The Latin, Arabic and Hebrew faces are vendored beside this file (fonts/, licences in
// fonts/LICENSES/, all from Debian's packages). The CJK faces are too big for the repository: they
// are read from Debian's packages where installed (fonts-lxgw-wenkai, fonts-arphic-ukai,
// fonts-klee; CI installs them, the container image does not yet: ~50 MB; their licences are in
// fonts/LICENSES/ all the same); where none is, the Noto Sans face
// the filled values already use stands in, so a CJK name always gets at least one style.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fontkit, { type Font as FontkitFont } from '@cantoo/fontkit';
import { forLayout, textDirection, visualRuns } from '../shared/bidi-layout.js';

export type SignatureScript = 'latin' | 'arabic' | 'hebrew' | 'cjk';

/** One style's outlines: `d` in a box `width` × `height` (y down), an em of 100 units. */
export interface SignatureStyle {
  id: string;
  /** The typeface's name (shown to the signer as the style's name is not translated). */
  face: string;
  d: string;
  width: number;
  height: number;
}

export interface SignatureStyles {
  script: SignatureScript;
  styles: SignatureStyle[];
}

const require = createRequire(import.meta.url);
const vendored = (file: string): string => fileURLToPath(new URL(`./fonts/${file}`, import.meta.url));
const besideEntry = (pkg: string, file: string): string => path.join(path.dirname(require.resolve(pkg)), '..', file);

interface Face { id: string; name: string; file: () => string }

/** Three faces a script, in the order offered; the first that covers a name is the default. */
const FACES: Readonly<Record<SignatureScript, readonly Face[]>> = {
  // fonts-dancingscript, fonts-kaushanscript, fonts-kristi: OFL 1.1.
  latin: [
    { id: 'dancing', name: 'Dancing Script', file: () => vendored('DancingScript-Regular.otf') },
    { id: 'kaushan', name: 'Kaushan Script', file: () => vendored('KaushanScript-Regular.otf') },
    { id: 'kristi', name: 'Kristi', file: () => vendored('Kristi.ttf') },
  ],
  // fonts-hosny-amiri (naskh, upright and slanted) and fonts-sil-lateef: OFL 1.1.
  arabic: [
    { id: 'amiri', name: 'Amiri', file: () => vendored('Amiri-Regular.ttf') },
    { id: 'amiri-slanted', name: 'Amiri Slanted', file: () => vendored('Amiri-Slanted.ttf') },
    { id: 'lateef', name: 'Lateef', file: () => vendored('Lateef-Regular.ttf') },
  ],
  // culmus: only its faces under GPL-2 with the font exception (a document using them is not GPL).
  hebrew: [
    { id: 'shofar', name: 'Shofar', file: () => vendored('ShofarRegular.ttf') },
    { id: 'keter', name: 'Keter YG', file: () => vendored('KeterYG-MediumOblique.ttf') },
    { id: 'hadasim', name: 'Hadasim CLM', file: () => vendored('HadasimCLM-RegularOblique.ttf') },
  ],
  // fonts-lxgw-wenkai (OFL 1.1, kai with kana), fonts-arphic-ukai (Arphic Public License), fonts-klee (OFL
  // 1.1, pencil). Not fonts-arphic-uming: its glyphs carry embedded bitmaps, which fontkit reads instead of outlines.
  cjk: [
    { id: 'wenkai', name: 'LXGW WenKai', file: () => '/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf' },
    { id: 'ukai', name: 'AR PL UKai', file: () => '/usr/share/fonts/truetype/arphic/ukai.ttc' },
    // Klee One has the kanji of Japanese (JIS levels 1 and 2), so a Chinese name with others gets two styles.
    { id: 'klee', name: 'Klee One', file: () => '/usr/share/fonts/truetype/klee/KleeOne-Regular.ttf' },
  ],
};

/** When no face of the script has every letter (Cyrillic, Greek, Hangul…): the value fonts' faces, plain. */
const FALLBACKS: readonly Face[] = [
  { id: 'dejavu-serif-italic', name: 'DejaVu Serif Italic', file: () => require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif-Italic.ttf') },
  { id: 'dejavu-sans', name: 'DejaVu Sans', file: () => require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf') },
  { id: 'noto-sans-sc', name: 'Noto Sans SC', file: () => besideEntry('@embedpdf/fonts-sc', 'fonts/NotoSansHans-Regular.otf') },
  { id: 'noto-sans-jp', name: 'Noto Sans JP', file: () => require.resolve('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf') },
  { id: 'noto-sans-kr', name: 'Noto Sans KR', file: () => besideEntry('@embedpdf/fonts-kr', 'fonts/NotoSansKR-Regular.otf') },
];

/** Every style id there is (the page may ask for one by id). */
export const SIGNATURE_STYLE_IDS: readonly string[] = [...Object.values(FACES).flat(), ...FALLBACKS].map((f) => f.id);

const loaded = new Map<string, Promise<FontkitFont | null>>();
/** Glyph ids each loaded face has laid out: fontkit keeps every glyph (and its outline) it builds. */
const laidOut = new Map<string, Set<number>>();
/**
 * Past this many distinct glyphs a face's font is dropped and parsed again on its next use, so a
 * stream of names in ever other CJK characters cannot grow the process without bound. Measured (40
 * names of 80 new CJK characters, UKai and Klee One): the heap grew 74 MB unbounded, 9 MB with this
 * bound; a name's median time went from 30 to 45 ms (the re-parses).
 */
export const MAX_CACHED_GLYPHS = 400;

/** The face's font, parsed once per process (again after MAX_CACHED_GLYPHS glyphs); null when its file is not installed. */
function fontOf(face: Face): Promise<FontkitFont | null> {
  let font = loaded.get(face.id);
  if (!font) {
    const file = face.file();
    font = existsSync(file)
      ? readFile(file).then((buf) => {
        const opened = fontkit.create(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
        // A collection (ukai.ttc: CN, TW, HK…): its first face, the simplified Chinese one.
        return 'fonts' in opened ? (opened.fonts[0] ?? null) : opened;
      })
      : Promise.resolve(null);
    loaded.set(face.id, font);
    laidOut.set(face.id, new Set());
  }
  return font;
}

/** Counts the glyphs a face just built; past the bound, the face is forgotten (its caches with it). */
function noteGlyphs(face: Face, ids: readonly number[]): void {
  const seen = laidOut.get(face.id);
  if (!seen) return;
  for (const id of ids) seen.add(id);
  if (seen.size > MAX_CACHED_GLYPHS) {
    loaded.delete(face.id);
    laidOut.delete(face.id);
  }
}

/** How many faces are parsed and held now (for tests of the bound). */
export function loadedFaceIds(): string[] {
  return [...loaded.keys()];
}

/** The script a name is written in: that of its first letter of Arabic, Hebrew or a CJK script, else Latin. */
export function scriptOf(text: string): SignatureScript {
  const m = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.exec(text);
  if (!m) return 'latin';
  if (/\p{Script=Arabic}/u.test(m[0])) return 'arabic';
  if (/\p{Script=Hebrew}/u.test(m[0])) return 'hebrew';
  return 'cjk';
}

const covers = (font: FontkitFont, text: string): boolean =>
  [...text].every((c) => /[\s\p{Cf}]/u.test(c) || font.hasGlyphForCodePoint(c.codePointAt(0)!));

const EM = 100;
const r1 = (n: number): number => Math.round(n * 10) / 10;
const LETTERS = { moveTo: 'M', lineTo: 'L', quadraticCurveTo: 'Q', bezierCurveTo: 'C', closePath: 'Z' } as const;

/** `text` laid out in `font` as one path: bidi runs in visual order, each shaped by fontkit. */
export function outline(font: FontkitFont, text: string, glyphIds: number[] = []): Omit<SignatureStyle, 'id' | 'face'> {
  const k = EM / font.unitsPerEm;
  const commands: Array<{ letter: string; args: number[] }> = [];
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  let pen = 0;
  for (const run of visualRuns(text, textDirection(text))) {
    const glyphs = font.layout(forLayout(run.text, run.rtl));
    glyphs.glyphs.forEach((glyph, i) => {
      glyphIds.push(glyph.id);
      const pos = glyphs.positions?.[i];
      const ox = pen + (pos?.xOffset ?? 0);
      const oy = pos?.yOffset ?? 0;
      for (const c of glyph.path.commands) {
        // Font units (y up, from the baseline) to the box's (y down, from the ascent), an em of 100.
        const args = c.args.map((v, j) => (j % 2 === 0 ? (ox + v) * k : (font.ascent - (oy + v)) * k));
        for (let j = 0; j < args.length; j += 2) {
          minX = Math.min(minX, args[j]!); maxX = Math.max(maxX, args[j]!);
          minY = Math.min(minY, args[j + 1]!); maxY = Math.max(maxY, args[j + 1]!);
        }
        commands.push({ letter: LETTERS[c.command], args });
      }
      pen += pos?.xAdvance ?? glyph.advanceWidth;
    });
  }
  if (commands.length === 0) return { d: '', width: 0, height: 0 };
  // Moved so that the ink starts at (0, 0): the page fits the box, whatever the face's metrics.
  const d = commands.map((c) => c.letter + c.args.map((v, j) => r1(v - (j % 2 === 0 ? minX : minY))).join(' ')).join('');
  return { d, width: r1(maxX - minX), height: r1(maxY - minY) };
}

/** The fallback faces worth trying for a script: the CJK ones (15–21 MB to parse) only for a CJK name. */
const fallbacksFor = (script: SignatureScript): readonly Face[] =>
  script === 'cjk' ? FALLBACKS : FALLBACKS.filter((f) => f.id.startsWith('dejavu-'));

/** One face's style for `text`, when the face is installed and covers it. */
async function styleIn(face: Face, text: string): Promise<SignatureStyle | null> {
  const font = await fontOf(face);
  if (!font || !covers(font, text)) return null;
  const ids: number[] = [];
  const style = { id: face.id, face: face.name, ...outline(font, text, ids) };
  noteGlyphs(face, ids);
  return style;
}

/**
 * Still on the main thread: a long CJK name costs the event loop tens of ms, bounded per signing link
 * by the route's window. Moving this into the PDF worker pool (src/pdf/pool/) would take it off the
 * loop, at the cost of each worker holding its own parsed faces; not done yet.
 *
 * The styles offered for `text`: its script's faces that have every letter of it (each laid out), or,
 * when none has, the first fallback face that has (the big CJK ones only for a CJK name).
 */
export async function renderSignatureStyles(text: string): Promise<SignatureStyles> {
  const script = scriptOf(text);
  const styles: SignatureStyle[] = [];
  for (const face of FACES[script]) {
    const style = await styleIn(face, text);
    if (style) styles.push(style);
  }
  if (styles.length === 0) {
    for (const face of fallbacksFor(script)) {
      const style = await styleIn(face, text);
      if (style) {
        styles.push(style);
        break;
      }
    }
  }
  return { script, styles };
}
