// Lays out a generated form on Letter or A4: a title, then the fields in one column (two for short
// ones) with labels above their inputs, choices as real radio groups and checkboxes, and the signature
// blocks last, one per signer, with a line and the signer's role. Every input is a real AcroForm field
// named as the form's field, so the document fills in any PDF reader, and the returned FieldDefs say
// where each one is. Text from the description is only ever drawn as text (pdf-lib encodes it as a
// string operand): nothing in it can become PDF syntax.
import {
  PDFDocument, PDFHexString, PDFName, rgb, StandardFonts, TextAlignment,
  type PDFField, type PDFFont, type PDFPage,
} from '@cantoo/pdf-lib';
import type { FieldDef, FieldType } from '../field.js';
import { DocumentFonts } from '../fill/index.js';

export interface LayoutField {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  signer: number;
  options?: string[] | undefined;
  multiline?: boolean | undefined;
  /** When the field applies ("If applicable"): drawn small under its label. */
  description?: string | undefined;
  /** The heading of the field's group; a heading is drawn where it changes. */
  section?: string | undefined;
}

export interface LayoutRequest {
  title: string;
  fields: readonly LayoutField[];
  /** Role names by signer slot, shown under each signature line. */
  signers: ReadonlyArray<{ slot: number; role: string }>;
  pageSize: 'letter' | 'a4';
  /** BCP 47 tag for the document's /Lang (screen readers, hyphenation). */
  language?: string | undefined;
  /** Shown under the title: what "*" means, in the form's language. */
  requiredNote?: string | undefined;
}

export interface LaidOutForm { pdf: Uint8Array; fields: FieldDef[]; pageCount: number }

const SIZES = { letter: [612, 792], a4: [595.28, 841.89] } as const;
const MARGIN = 54;
const GAP = 18;
const COLUMN_GAP = 20;
const LABEL_SIZE = 9;
const LABEL_GAP = 4;
const INPUT_H = 22;
const MULTILINE_H = 60;
const BOX = 12;
const SIG_H = 46;
const HINT_SIZE = 8;
const HEADING_H = 26;
const INK = rgb(0.11, 0.13, 0.17);
const MUTED = rgb(0.38, 0.41, 0.47);
const RULE = rgb(0.78, 0.8, 0.84);
const FIELD_BG = rgb(0.97, 0.975, 0.985);
const ACCENT = rgb(0.16, 0.36, 0.75);
const SHORT: ReadonlySet<FieldType> = new Set(['email', 'phone', 'date', 'number', 'select', 'date_signed']);

interface Fonts { regular: PDFFont; bold: PDFFont }

/** Keeps what the font can draw: control characters go, characters it lacks become "?". */
function drawable(font: PDFFont, text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  try {
    font.encodeText(clean);
    return clean;
  } catch {
    return [...clean].map((c) => { try { font.encodeText(c); return c; } catch { return '?'; } }).join('');
  }
}

function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width || !line) {
      line = next;
    } else {
      lines.push(line);
      line = word;
    }
    // A single word wider than the line is cut rather than drawn past the margin.
    while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
      let cut = line.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

function setTooltip(field: PDFField, text: string): void {
  field.acroField.dict.set(PDFName.of('TU'), PDFHexString.fromText(text));
}

interface Block {
  /** Height on the page, label included. */
  height: number;
  /** Draws at `top` (points from the page's top edge) and returns the field's rectangle. */
  draw(page: PDFPage, x: number, top: number, width: number): void;
}

export async function layoutForm(req: LayoutRequest): Promise<LaidOutForm> {
  const doc = await PDFDocument.create();
  const [pageW, pageH] = SIZES[req.pageSize];
  const textsOf = (x: LayoutField): string[] => [x.label, ...(x.options ?? []), x.description ?? '', x.section ?? ''];
  const every = [req.title, req.requiredNote ?? '', ...req.fields.flatMap(textsOf), ...req.signers.map((s) => s.role)].join(' ');
  const fonts = new DocumentFonts(doc);
  const regular = await fonts.forText(every);
  const bold = regular.name === StandardFonts.Helvetica ? await doc.embedFont(StandardFonts.HelveticaBold) : regular;
  const f: Fonts = { regular, bold };
  // Each text gets the bundled face that has its characters (a Cyrillic label beside a Japanese one),
  // Helvetica (bold for labels) when it is Latin-1.
  const helveticaBold = bold.name === StandardFonts.HelveticaBold ? bold : await doc.embedFont(StandardFonts.HelveticaBold);
  const faces = new Map<string, PDFFont>();
  for (const s of new Set([req.title, req.requiredNote ?? '', ...req.fields.flatMap(textsOf), ...req.signers.map((x) => x.role)])) {
    faces.set(s, await fonts.forText(s));
  }
  const fontFor = (s: string, isBold: boolean): PDFFont => {
    const face = faces.get(s) ?? regular;
    return face.name === StandardFonts.Helvetica && isBold ? helveticaBold : face;
  };
  doc.setTitle(drawable(regular, req.title), { showInWindowTitleBar: true });
  doc.setCreator('Formsign');
  doc.setProducer('Formsign');
  // A hex string: PDFString.of writes its text verbatim, so a ")" in it would end the string and
  // whatever follows would become catalog syntax (an /OpenAction). The domain checks the tag's shape too.
  if (req.language) doc.catalog.set(PDFName.of('Lang'), PDFHexString.fromText(req.language));
  const form = doc.getForm();
  const defs: FieldDef[] = [];
  const contentW = pageW - 2 * MARGIN;
  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let top = 0;

  const newPage = (): void => {
    page = doc.addPage([pageW, pageH]);
    pages.push(page);
    top = MARGIN;
  };
  const y = (t: number): number => pageH - t;
  const text = (s: string, x: number, t: number, size: number, font: PDFFont, color = INK): void => {
    page.drawText(drawable(font, s), { x, y: y(t) - size * 0.78, size, font, color });
  };
  const labelLines = (field: LayoutField, width: number): string[] => {
    const font = fontFor(field.label, true);
    return wrap(font, drawable(font, field.label + (field.required ? ' *' : '')), LABEL_SIZE, width);
  };
  const place = (field: LayoutField, x: number, t: number, width: number, height: number): void => {
    defs.push({
      name: field.name, type: field.type, label: field.label, required: field.required, signer: field.signer,
      page: pages.length, x: round(x), y: round(t), width: round(width), height: round(height),
      ...(field.options ? { options: field.options } : {}),
      ...(field.multiline ? { multiline: true } : {}),
      // The condition drawn under the label reaches the API's Field too.
      ...(field.description ? { description: field.description.slice(0, 500) } : {}),
    });
  };
  const hintLines = (field: LayoutField, width: number): string[] => {
    if (!field.description) return [];
    const font = fontFor(field.description, false);
    return wrap(font, drawable(font, field.description), HINT_SIZE, width);
  };
  const labelHeight = (field: LayoutField, width: number): number =>
    labelLines(field, width).length * (LABEL_SIZE + 2) + hintLines(field, width).length * (HINT_SIZE + 2) + LABEL_GAP;
  const drawLabel = (field: LayoutField, x: number, t: number, width: number): number => {
    const lines = labelLines(field, width);
    lines.forEach((line, i) => text(line, x, t + i * (LABEL_SIZE + 2), LABEL_SIZE, fontFor(field.label, true), MUTED));
    const below = t + lines.length * (LABEL_SIZE + 2);
    hintLines(field, width).forEach((line, i) => text(line, x, below + i * (HINT_SIZE + 2), HINT_SIZE, fontFor(field.description ?? '', false), MUTED));
    return labelHeight(field, width);
  };

  const optionWidth = (option: string): number => {
    const font = fontFor(option, false);
    return font.widthOfTextAtSize(drawable(font, option), 10);
  };
  const block = (field: LayoutField, width: number): Block => {
    const labelH = labelHeight(field, width);
    if (field.type === 'checkbox') {
      const font = fontFor(field.label, false);
      const lines = wrap(font, drawable(font, field.label + (field.required ? ' *' : '')), 10, width - BOX - 8);
      const hints = hintLines(field, width - BOX - 8);
      return {
        height: Math.max(BOX, lines.length * 13 + hints.length * (HINT_SIZE + 2)),
        draw: (pg, x, t) => {
          hints.forEach((line, i) => text(line, x + BOX + 8, t + 1 + lines.length * 13 + i * (HINT_SIZE + 2), HINT_SIZE, fontFor(field.description ?? '', false), MUTED));
          const box = form.createCheckBox(field.name);
          box.addToPage(pg, { x: x + 0.5, y: y(t + BOX) + 0.5, width: BOX - 1, height: BOX - 1, borderColor: MUTED, borderWidth: 1, backgroundColor: rgb(1, 1, 1) });
          if (field.required) box.enableRequired();
          setTooltip(box, field.label);
          lines.forEach((line, i) => text(line, x + BOX + 8, t + 1 + i * 13, 10, font));
          place(field, x, t, BOX, BOX);
        },
      };
    }
    if (field.type === 'radio') {
      const options = field.options ?? [];
      // Options flow left to right and wrap; each is a circle and its text.
      const rows: Array<Array<{ option: string; dx: number }>> = [[]];
      let dx = 0;
      for (const option of options) {
        const w = BOX + 6 + optionWidth(option) + 18;
        if (dx > 0 && dx + w > width) { rows.push([]); dx = 0; }
        rows[rows.length - 1]!.push({ option, dx });
        dx += w;
      }
      return {
        height: labelH + rows.length * 18 - 6,
        draw: (pg, x, t) => {
          drawLabel(field, x, t, width);
          const group = form.createRadioGroup(field.name);
          rows.forEach((row, r) => row.forEach(({ option, dx: ox }) => {
            const oy = t + labelH + r * 18;
            group.addOptionToPage(option, pg, { x: x + ox + 0.5, y: y(oy + BOX) + 0.5, width: BOX - 1, height: BOX - 1, borderColor: MUTED, borderWidth: 1, backgroundColor: rgb(1, 1, 1) });
            text(option, x + ox + BOX + 6, oy + 1, 10, fontFor(option, false));
          }));
          if (field.required) group.enableRequired();
          setTooltip(group, field.label);
          // The field's rectangle is what its options cover, not the whole line.
          const used = Math.max(...rows.map((row) => {
            const lastOpt = row[row.length - 1];
            return lastOpt ? lastOpt.dx + BOX + 6 + optionWidth(lastOpt.option) : 0;
          }));
          place(field, x, t + labelH, Math.min(width, used), rows.length * 18 - 6);
        },
      };
    }
    const height = field.multiline ? MULTILINE_H : INPUT_H;
    return {
      height: labelH + height,
      draw: (pg, x, t, w) => {
        const lh = drawLabel(field, x, t, w);
        const rect = { x: x + 0.5, y: y(t + lh + height) + 0.5, width: w - 1, height: height - 1, borderColor: RULE, borderWidth: 1, backgroundColor: FIELD_BG };
        if (field.type === 'select') {
          const dd = form.createDropdown(field.name);
          dd.addOptions(field.options ?? []);
          dd.addToPage(pg, { ...rect, font: f.regular });
          dd.setFontSize(10);
          if (field.required) dd.enableRequired();
          setTooltip(dd, field.label);
        } else {
          const tf = form.createTextField(field.name);
          if (field.multiline) tf.enableMultiline();
          tf.addToPage(pg, { ...rect, font: f.regular });
          tf.setFontSize(field.multiline ? 10 : 11);
          if (field.type === 'number' || field.type === 'date') tf.setAlignment(TextAlignment.Left);
          if (field.required) tf.enableRequired();
          setTooltip(tf, field.label);
        }
        place(field, x, t + lh, w, height);
      },
    };
  };

  // Signature, initials and date-signed fields go into their signer's block at the end.
  const signing = new Set<FieldType>(['signature', 'initials', 'date_signed']);
  const body = req.fields.filter((x) => !signing.has(x.type));
  const signingFields = req.fields.filter((x) => signing.has(x.type));

  newPage();
  const titleFont = fontFor(req.title, true);
  const titleLines = wrap(titleFont, drawable(titleFont, req.title), 20, contentW);
  titleLines.forEach((line, i) => text(line, MARGIN, top + i * 25, 20, titleFont));
  top += titleLines.length * 25 + 4;
  if (req.requiredNote && req.fields.some((x) => x.required)) {
    text(req.requiredNote, MARGIN, top + 2, 9, fontFor(req.requiredNote, false), MUTED);
    top += 16;
  }
  page.drawRectangle({ x: MARGIN, y: y(top + 6), width: contentW, height: 2, color: ACCENT });
  top += 6 + GAP + 4;

  const ensure = (h: number): void => {
    if (top + h > pageH - MARGIN) newPage();
  };
  const colW = (contentW - COLUMN_GAP) / 2;
  const isShort = (x: LayoutField): boolean =>
    (SHORT.has(x.type) || (x.type === 'text' && !x.multiline && x.label.length <= 32)) && labelLines(x, colW).length <= 2 && hintLines(x, colW).length <= 1;

  // The body as rows (a pair of short fields or one field), each with the section heading it opens:
  // planned first, so the signature blocks can be kept with what precedes them.
  interface Row { heading?: string | undefined; height: number; draw(t: number): void }
  const rows: Row[] = [];
  let section: string | undefined;
  for (let i = 0; i < body.length; i++) {
    const a = body[i]!;
    const b = body[i + 1];
    const heading = a.section !== undefined && a.section !== section ? a.section : undefined;
    section = a.section;
    const headH = heading ? HEADING_H : 0;
    if (b && b.section === a.section && isShort(a) && isShort(b)) {
      const ba = block(a, colW);
      const bb = block(b, colW);
      const h = Math.max(ba.height, bb.height);
      // Inputs of a pair line up: the shorter label is pushed down.
      rows.push({ heading, height: headH + h, draw: (t) => { ba.draw(page, MARGIN, t + (h - ba.height), colW); bb.draw(page, MARGIN + colW + COLUMN_GAP, t + (h - bb.height), colW); } });
      i++;
      continue;
    }
    // A short field alone keeps a short input: a date box the width of the page looks like a text area.
    const w = isShort(a) ? colW : contentW;
    const bl = block(a, w);
    rows.push({ heading, height: headH + bl.height, draw: (t) => bl.draw(page, MARGIN, t, w) });
  }

  // Signature blocks: one per signer slot that has signing fields.
  const slots = [...new Set(signingFields.map((x) => x.signer))].sort((p, q) => p - q);
  const rowH = SIG_H + 30;
  const slotHeight = (slot: number): number => Math.max(signingFields.filter((x) => x.signer === slot && x.type === 'signature').length, 1) * rowH + 4;
  // 6 above the first block, 4 between blocks (as drawn below).
  const signingHeight = slots.length > 0 ? 6 + slots.reduce((n, slot) => n + slotHeight(slot), 0) - 4 : 0;
  const pageRoom = pageH - 2 * MARGIN;

  // No signature page on its own: when the blocks would start a page of their own, the last rows of
  // the body move with them (as few as balance the pages), if together they fit on one page.
  const breakBefore = orphanBreak(rows.map((r) => r.height), top, signingHeight, pageH, pageRoom);
  rows.forEach((row, i) => {
    if (i === breakBefore && top > MARGIN) newPage();
    ensure(row.height);
    let t = top;
    if (row.heading) {
      const font = fontFor(row.heading, true);
      text(row.heading, MARGIN, t + 2, 12, font);
      page.drawRectangle({ x: MARGIN, y: y(t + 18), width: contentW, height: 0.75, color: RULE });
      t += HEADING_H;
    }
    row.draw(t);
    top += row.height + GAP;
  });

  // Each signer's block is kept on one page when it fits on one. A signer with more signatures than a
  // page holds breaks between rows (a row is a signature with its line, label and role, never split);
  // the first row keeps the initials and date beside it.
  if (slots.length > 0) top += 6;
  for (const slot of slots) {
    const mine = signingFields.filter((x) => x.signer === slot);
    const role = req.signers.find((s) => s.slot === slot)?.role ?? '';
    const sigs = mine.filter((x) => x.type === 'signature');
    const others = mine.filter((x) => x.type !== 'signature');
    const height = Math.max(sigs.length, 1) * rowH;
    if (height <= pageH - 2 * MARGIN) ensure(height);
    const sigW = others.length > 0 ? contentW * 0.58 : contentW * 0.62;
    for (let k = 0; k < Math.max(sigs.length, 1); k++) {
      ensure(rowH);
      const rowTop = top;
      const sig = sigs[k];
      if (sig) {
        addSignatureField(doc, page, sig, { x: MARGIN, y: y(rowTop + SIG_H), width: sigW, height: SIG_H });
        page.drawLine({ start: { x: MARGIN, y: y(rowTop + SIG_H) }, end: { x: MARGIN + sigW, y: y(rowTop + SIG_H) }, thickness: 1, color: INK });
        text('X', MARGIN + 2, rowTop + SIG_H - 14, 11, f.regular, MUTED);
        text(sig.label + (sig.required ? ' *' : ''), MARGIN, rowTop + SIG_H + 5, LABEL_SIZE, fontFor(sig.label, true), MUTED);
        if (role && !sig.label.toLowerCase().includes(role.toLowerCase())) text(role, MARGIN, rowTop + SIG_H + 17, LABEL_SIZE, fontFor(role, false), MUTED);
        place(sig, MARGIN, rowTop, sigW, SIG_H);
      }
      // Initials and the date of signing sit beside the (first) signature, on the same baseline.
      if (k === 0) {
        let ox = MARGIN + sigW + COLUMN_GAP;
        const ow = (contentW - sigW - COLUMN_GAP - (others.length - 1) * 12) / Math.max(others.length, 1);
        for (const o of others) {
          const h = o.type === 'initials' ? SIG_H : INPUT_H;
          if (o.type === 'initials') {
            addSignatureField(doc, page, o, { x: ox, y: y(rowTop + SIG_H), width: ow, height: h });
          } else {
            const tf = form.createTextField(o.name);
            tf.addToPage(page, { x: ox + 0.5, y: y(rowTop + SIG_H) + 0.5, width: ow - 1, height: h - 1, borderWidth: 0, font: f.regular });
            tf.setFontSize(11);
            setTooltip(tf, o.label);
          }
          page.drawLine({ start: { x: ox, y: y(rowTop + SIG_H) }, end: { x: ox + ow, y: y(rowTop + SIG_H) }, thickness: 1, color: INK });
          text(o.label + (o.required ? ' *' : ''), ox, rowTop + SIG_H + 5, LABEL_SIZE, fontFor(o.label, true), MUTED);
          place(o, ox, rowTop + SIG_H - h, ow, h);
          ox += ow + 12;
        }
      }
      top = rowTop + rowH;
    }
    top += 4;
  }

  // Every field is inside its page's margins: a layout bug must fail here, not produce a form whose
  // fields a reader draws off the page.
  for (const d of defs) {
    if (d.page < 1 || d.page > pages.length || d.x < MARGIN - 1 || d.x + d.width > pageW - MARGIN + 1
      || d.y < MARGIN - 1 || d.y + d.height > pageH - MARGIN + 1) {
      throw new Error(`layout placed field ${d.name} outside page ${d.page} (${d.x}, ${d.y}, ${d.width} x ${d.height})`);
    }
  }

  pages.forEach((pg, i) => {
    const label = `${i + 1} / ${pages.length}`;
    pg.drawText(label, { x: pageW - MARGIN - f.regular.widthOfTextAtSize(label, 8), y: MARGIN / 2, size: 8, font: f.regular, color: MUTED });
  });
  // Appearances are drawn with the font that covers the labels; viewers need not regenerate them.
  form.updateFieldAppearances(f.regular);
  const pdf = await doc.save();
  return { pdf, fields: defs, pageCount: pages.length };
}

/**
 * The body row before which to break the page so the signature blocks do not sit alone on the last
 * page; -1 when they do not (or cannot be helped: they alone fill more than a page).
 */
export function orphanBreak(heights: readonly number[], startTop: number, signing: number, pageH: number, room: number): number {
  if (heights.length === 0 || signing === 0 || signing > room) return -1;
  let t = startTop;
  const rowTop: number[] = [];
  for (const h of heights) {
    if (t + h > pageH - MARGIN) t = MARGIN;
    rowTop.push(t);
    t += h + GAP;
  }
  if (t + signing <= pageH - MARGIN) return -1;
  // The last row moves to the new page with the blocks: the block is never alone, and the page before
  // loses the least.
  const last = heights.length - 1;
  if (heights[last]! + GAP + signing > room || rowTop[last]! <= MARGIN + 0.5) return -1;
  return last;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

// pdf-lib has no API for signature fields, so each is a merged field/widget dictionary (as the sample template's).
function addSignatureField(doc: PDFDocument, page: PDFPage, field: LayoutField, r: { x: number; y: number; width: number; height: number }): void {
  const ref = doc.context.register(doc.context.obj({
    Type: 'Annot', Subtype: 'Widget', FT: 'Sig', F: 4, Ff: field.required ? 2 : 0,
    T: PDFHexString.fromText(field.name), TU: PDFHexString.fromText(field.label),
    Rect: [r.x, r.y, r.x + r.width, r.y + r.height], P: page.ref,
  }));
  page.node.addAnnot(ref);
  doc.getForm().acroForm.addField(ref);
}
