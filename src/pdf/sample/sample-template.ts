// A one-page "Sample agreement" made by our own code, for demos and first-run setups. Its fields
// are real AcroForm fields, so inspecting the PDF finds them; the returned FieldDefs add what a
// PDF cannot say: `email` and `date` are plain text fields in the PDF.
import { PDFDocument, PDFHexString, PDFName, PDFString, rgb, StandardFonts, type PDFField, type PDFPage } from '@cantoo/pdf-lib';
import type { FieldDef } from '../field.js';
import { rectFromTopLeft, type Rect } from '../shared/page-geometry.js';

export interface SampleTemplate { pdf: Uint8Array; fields: FieldDef[]; pageCount: number }

const BODY = [
  'This agreement is made between the organisation sending this document and the person who signs it below.',
  'By signing, you confirm that the details you enter are correct and that you agree to the terms described to you.',
  'Either party may end this agreement with thirty days written notice. This is a sample document for trying out Formsign.',
];

interface Slot { name: string; type: FieldDef['type']; label: string; required: boolean; rect: Rect }
const SLOTS: Slot[] = [
  { name: 'full_name', type: 'text', label: 'Full name', required: true, rect: { x: 72, y: 262, width: 300, height: 22 } },
  { name: 'email', type: 'email', label: 'Email', required: false, rect: { x: 72, y: 312, width: 300, height: 22 } },
  { name: 'date', type: 'date', label: 'Date', required: false, rect: { x: 72, y: 362, width: 140, height: 22 } },
  { name: 'agree', type: 'checkbox', label: 'I agree to the terms above', required: false, rect: { x: 72, y: 406, width: 14, height: 14 } },
  { name: 'signature', type: 'signature', label: 'Signature', required: true, rect: { x: 72, y: 460, width: 240, height: 60 } },
];

const GREY = rgb(0.35, 0.35, 0.35);
const BORDER = 1;

function setTooltip(field: PDFField, text: string): void {
  field.acroField.dict.set(PDFName.of('TU'), PDFHexString.fromText(text));
}

// pdf-lib has no API for signature fields, so this one is a merged field/widget dictionary.
function addSignatureField(doc: PDFDocument, page: PDFPage, slot: Slot): void {
  const r = rectFromTopLeft(page, slot.rect);
  const ref = doc.context.register(doc.context.obj({
    Type: 'Annot', Subtype: 'Widget', FT: 'Sig', F: 4, Ff: slot.required ? 2 : 0,
    T: PDFString.of(slot.name), TU: PDFHexString.fromText(slot.label),
    Rect: [r.x, r.y, r.x + r.width, r.y + r.height], P: page.ref,
  }));
  page.node.addAnnot(ref);
  doc.getForm().acroForm.addField(ref);
}

export async function makeSampleTemplatePdf(): Promise<SampleTemplate> {
  const doc = await PDFDocument.create();
  doc.setTitle('Sample agreement');
  const page = doc.addPage([612, 792]);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const text = (s: string, x: number, y: number, size: number, font = regular, color = rgb(0, 0, 0)): void => {
    const at = rectFromTopLeft(page, { x, y, width: 0, height: 0 });
    page.drawText(s, { x: at.x, y: at.y, size, font, color, maxWidth: 468, lineHeight: size * 1.35 });
  };
  text('Sample agreement', 72, 90, 22, bold);
  BODY.forEach((p, i) => text(p, 72, 130 + i * 36, 11));

  const form = doc.getForm();
  for (const slot of SLOTS) {
    const r = rectFromTopLeft(page, slot.rect);
    // pdf-lib grows a widget by half its border on every side; inset so the widget is exactly `rect`.
    const b = BORDER / 2;
    const place = { x: r.x + b, y: r.y + b, width: r.width - BORDER, height: r.height - BORDER, borderColor: GREY, borderWidth: BORDER };
    if (slot.type === 'checkbox') {
      const box = form.createCheckBox(slot.name);
      box.addToPage(page, place);
      setTooltip(box, slot.label);
      text(slot.label, slot.rect.x + 22, slot.rect.y + 11, 11);
    } else if (slot.type === 'signature') {
      page.drawRectangle({ ...r, borderColor: GREY, borderWidth: BORDER, borderDashArray: [4, 3] });
      text(slot.label, slot.rect.x, slot.rect.y + slot.rect.height + 14, 9, regular, GREY);
      addSignatureField(doc, page, slot);
    } else {
      const field = form.createTextField(slot.name);
      field.addToPage(page, { ...place, font: regular });
      field.setFontSize(11);
      if (slot.required) field.enableRequired();
      setTooltip(field, slot.label);
      text(slot.label, slot.rect.x, slot.rect.y - 5, 9, regular, GREY);
    }
  }
  const pdf = await doc.save();
  const fields = SLOTS.map((s): FieldDef => ({
    name: s.name, type: s.type, label: s.label, required: s.required, signer: 1, page: 1, ...s.rect,
  }));
  return { pdf, fields, pageCount: 1 };
}
