// Fonts for filled values. Latin-1 text uses the standard Helvetica (nothing to embed, like most
// form defaults); anything else gets a subset of a bundled font chosen by glyph coverage:
// DejaVu Sans (Latin Extended, Greek, Cyrillic, symbols such as ✓) or Noto Sans JP (kana and
// kanji). Font files are read and parsed once per process, then shared by every document.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit, { type Font as FontkitFont } from '@cantoo/fontkit';
import { StandardFonts, type PDFDocument, type PDFFont } from '@cantoo/pdf-lib';

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];

export type FaceId = 'helvetica' | 'dejavu-sans' | 'noto-sans-jp';
type CustomFaceId = Exclude<FaceId, 'helvetica'>;

const FILES: Record<CustomFaceId, string> = {
  'dejavu-sans': 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  'noto-sans-jp': '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
};
// Tie-break order: DejaVu's Latin and Greek are closer to the form's own look than Noto's.
const CUSTOM_FACES: CustomFaceId[] = ['dejavu-sans', 'noto-sans-jp'];

interface LoadedFace { bytes: Uint8Array; font: FontkitFont }
const require = createRequire(import.meta.url);
const loading = new Map<CustomFaceId, Promise<LoadedFace>>();
const parsedByBytes = new WeakMap<Uint8Array, FontkitFont>();

function loadFace(id: CustomFaceId): Promise<LoadedFace> {
  let face = loading.get(id);
  if (!face) {
    face = readFile(require.resolve(FILES[id])).then((buf) => {
      const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      const font = fontkit.create(bytes) as FontkitFont;
      parsedByBytes.set(bytes, font);
      return { bytes, font };
    });
    face.catch(() => loading.delete(id));
    loading.set(id, face);
  }
  return face;
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

function codePoints(text: string): number[] {
  return [...text].map((c) => c.codePointAt(0) ?? 0).filter((cp) => !isLayoutChar(cp));
}

/** The face that can show the most of `text`; Helvetica when it can show all of it. */
export async function chooseFace(text: string): Promise<FaceId> {
  const cps = codePoints(text);
  if (cps.every(inWinAnsi)) return 'helvetica';
  let best: CustomFaceId = 'dejavu-sans';
  let bestCovered = -1;
  for (const id of CUSTOM_FACES) {
    const { font } = await loadFace(id);
    const covered = cps.filter((cp) => font.hasGlyphForCodePoint(cp)).length;
    if (covered > bestCovered) { best = id; bestCovered = covered; }
  }
  return best;
}

/** Per-document embedded fonts, each embedded (as a subset) at most once. */
export class DocumentFonts {
  private readonly embedded = new Map<FaceId, Promise<PDFFont>>();

  constructor(private readonly doc: PDFDocument) {
    doc.registerFontkit(cachingFontkit);
  }

  face(id: FaceId): Promise<PDFFont> {
    let font = this.embedded.get(id);
    if (!font) {
      font = id === 'helvetica'
        ? this.doc.embedFont(StandardFonts.Helvetica)
        : loadFace(id).then(({ bytes }) => this.doc.embedFont(bytes, { subset: true }));
      this.embedded.set(id, font);
    }
    return font;
  }

  async forText(text: string): Promise<PDFFont> {
    return this.face(await chooseFace(text));
  }
}
