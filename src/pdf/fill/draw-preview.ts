// A template's field map: each field's rectangle outlined on its page, in its signer's colour, with a
// tag that names it, so coordinates given as JSON can be checked by eye instead of by guesswork.
import { cleanText, PDFDocument, rgb, type Color, type PDFPage } from '@cantoo/pdf-lib';
import type { FieldDef } from '../field.js';
import { displaySize, pointFromTopLeft, rectFromTopLeft } from '../shared/page-geometry.js';
import { drawLine } from './draw-flat.js';
import { DocumentFonts } from './fonts.js';

// One hue per signer slot (the signing page and dashboard use the same order); slots past the list
// reuse it.
const SIGNER_COLOURS: readonly Color[] = [
  rgb(0.15, 0.39, 0.92), rgb(0.86, 0.15, 0.15), rgb(0.09, 0.64, 0.29), rgb(0.58, 0.2, 0.92), rgb(0.92, 0.45, 0.05), rgb(0.03, 0.57, 0.7),
];
const TAG_SIZE = 6;
const TAG_PAD = 1.5;
const WHITE = rgb(1, 1, 1);

const colourOf = (signer: number): Color => SIGNER_COLOURS[(signer - 1) % SIGNER_COLOURS.length]!;

/** "name · type · signer n" — what a developer needs to match the box to the JSON. */
function tagOf(def: FieldDef): string {
  const parts = [def.name, def.type + (def.multiline ? ', multiline' : '') + (def.required ? ', required' : '')];
  if (def.signer > 1) parts.push(`signer ${def.signer}`);
  return cleanText(parts.join(' · '));
}

export async function drawPreview(templatePdf: Uint8Array, fields: readonly FieldDef[]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(templatePdf, { updateMetadata: false, ignoreEncryption: true });
  const fonts = new DocumentFonts(doc);
  const pages = doc.getPages();
  for (const def of fields) {
    const page = pages[def.page - 1];
    if (!page) continue;
    const colour = colourOf(def.signer);
    const box = rectFromTopLeft(page, def);
    page.drawRectangle({ ...box, color: colour, opacity: 0.12, borderColor: colour, borderWidth: 0.75, borderOpacity: 0.9 });
    await drawTag(page, def, tagOf(def), colour, fonts);
  }
  return doc.save();
}

/**
 * The tag sits on the box's top edge, just above it, or just inside when the box touches the top of
 * the page; white text on the signer's colour.
 */
async function drawTag(page: PDFPage, def: FieldDef, text: string, colour: Color, fonts: DocumentFonts): Promise<void> {
  const font = await fonts.forValue(text);
  const pageWidth = displaySize(page).width;
  const width = Math.min(font.widthOfTextAtSize(text, TAG_SIZE) + 2 * TAG_PAD, Math.max(0, pageWidth - def.x));
  const height = font.heightAtSize(TAG_SIZE) + TAG_PAD;
  const top = def.y >= height ? def.y - height : def.y;
  page.drawRectangle({ ...rectFromTopLeft(page, { x: def.x, y: top, width, height }), color: colour, opacity: 0.9 });
  const baseline = top + TAG_PAD / 2 + font.heightAtSize(TAG_SIZE, { descender: false });
  drawLine(page, font, text, pointFromTopLeft(page, def.x + TAG_PAD, baseline), TAG_SIZE, WHITE);
}
