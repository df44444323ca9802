// What signers add at signing, drawn into their fields' rectangles: signature and initials images
// (scaled to fit, aspect kept, centred) and the date of signing.
import { degrees, rgb, StandardFonts, type PDFDocument, type PDFImage, type PDFPage } from '@cantoo/pdf-lib';
import { drawLine, type DocumentFonts } from '../fill/index.js';
import type { FieldDef } from '../field.js';
import { fitCentred } from '../audit/index.js';
import { pointFromTopLeft } from '../shared/page-geometry.js';

const PADDING = 2;
const MAX_DATE_SIZE = 12;
const MIN_DATE_SIZE = 6;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `caption`: the signature's manifestation (issue 38), printed under it: its meaning, the signer's name
 * and the UTC time ("Approved · Ada Lovelace · 2026-05-04 09:12:00 UTC").
 */
export interface Mark { field: string; png: Uint8Array; caption?: string | undefined }

const CAPTION_SIZE = 7;
const MIN_CAPTION_SIZE = 4.5;

/** The caption just below the field's rectangle, shrunk to its width (down to a floor), in its own direction. */
async function drawCaption(page: PDFPage, def: FieldDef, caption: string, fonts: DocumentFonts): Promise<void> {
  const font = await fonts.forValue(caption);
  const width = font.widthOfTextAtSize(caption, 1);
  const size = Math.max(MIN_CAPTION_SIZE, Math.min(CAPTION_SIZE, width > 0 ? def.width / width : CAPTION_SIZE));
  drawLine(page, font, caption, pointFromTopLeft(page, def.x, def.y + def.height + size + 1), size, CAPTION_INK);
}
const CAPTION_INK = rgb(0.2, 0.2, 0.25);

function fieldOfType(fields: readonly FieldDef[], name: string, types: ReadonlyArray<FieldDef['type']>): FieldDef {
  const def = fields.find((f) => f.name === name);
  if (!def || !types.includes(def.type)) throw new RangeError(`"${name}" is not a ${types.join(' or ')} field of this form`);
  return def;
}

function pageOf(doc: PDFDocument, def: FieldDef) {
  const page = doc.getPages()[def.page - 1];
  if (!page) throw new RangeError(`Field "${def.name}" is on page ${def.page}, but the PDF has ${doc.getPageCount()} pages`);
  return page;
}

export async function drawMarks(doc: PDFDocument, fields: readonly FieldDef[], marks: readonly Mark[], fonts?: DocumentFonts): Promise<void> {
  // One image object per distinct PNG: a signer's signature repeated on every page is stored once.
  const images = new Map<Uint8Array, Promise<PDFImage>>();
  for (const mark of marks) {
    const def = fieldOfType(fields, mark.field, ['signature', 'initials']);
    const page = pageOf(doc, def);
    let image = images.get(mark.png);
    if (!image) images.set(mark.png, (image = doc.embedPng(mark.png)));
    const img = await image;
    const fit = fitCentred(img, def, PADDING);
    // Images are placed by their bottom-left corner, turned with the page so they read upright.
    const at = pointFromTopLeft(page, fit.x, fit.y + fit.height);
    page.drawImage(img, { x: at.x, y: at.y, width: fit.width, height: fit.height, rotate: degrees(at.rotation) });
    if (mark.caption && fonts) await drawCaption(page, def, mark.caption, fonts);
  }
}

export async function drawDates(doc: PDFDocument, fields: readonly FieldDef[], dates: Readonly<Record<string, string>>): Promise<void> {
  const entries = Object.entries(dates);
  if (entries.length === 0) return;
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [name, date] of entries) {
    if (!ISO_DATE.test(date)) throw new RangeError(`The date for "${name}" must be YYYY-MM-DD, got "${date}"`);
    const def = fieldOfType(fields, name, ['date_signed']);
    const page = pageOf(doc, def);
    const byHeight = (def.height - PADDING) / font.heightAtSize(1, { descender: true });
    const byWidth = (def.width - 2 * PADDING) / font.widthOfTextAtSize(date, 1);
    const size = Math.max(MIN_DATE_SIZE, Math.min(MAX_DATE_SIZE, byHeight, byWidth));
    const baseline = def.y + (def.height + font.heightAtSize(size, { descender: false }) * 0.8) / 2;
    const at = pointFromTopLeft(page, def.x + PADDING, baseline);
    page.drawText(date, { x: at.x, y: at.y, size, font, color: rgb(0, 0, 0), rotate: degrees(at.rotation) });
  }
}
