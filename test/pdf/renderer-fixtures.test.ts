// Fills every field of every fixture and checks the result with independent tools: qpdf for
// structure, pdftotext for the visible text, and pdf-lib for the stored field values.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PDFCheckBox, PDFDocument, PDFDropdown, PDFName, PDFOptionList, PDFRadioGroup, PDFTextField } from '@cantoo/pdf-lib';
import { radioChoices, selectChoices } from '../../src/pdf/shared/field-options.js';
import {
  createPdfInspector, type FieldDef, type FieldValue, type PdfInspector,
} from '../../src/pdf/index.js';
import { createPdfRenderer } from '../../src/pdf/fill/index.js';
import { blankGlyphsShown, FIXTURES, pdfToText, qpdfCheck, readFixture } from './support/fixtures.js';

const SCRIPTS = ['Łódź', '日本語', 'Ελληνικά', 'Привет', 'Zürich', '简体中文', '한국어'];
let inspector: PdfInspector;
const renderer = createPdfRenderer();

before(() => { inspector = createPdfInspector({ timeoutMs: 10_000, maxOldGenerationSizeMb: 256 }); });
after(() => inspector.close());

function valuesFor(fields: FieldDef[]): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  // Scripts take turns over the text fields only, so every script lands on some text field.
  let t = 0;
  fields.forEach((f, i) => {
    if (f.type === 'checkbox') values[f.name] = true;
    else if (f.type === 'radio' || f.type === 'select') values[f.name] = f.options?.[0] ?? null;
    else if (f.type === 'signature') values[f.name] = 'MUST-NOT-APPEAR';
    else values[f.name] = `${SCRIPTS[t++ % SCRIPTS.length]}${i}`;
  });
  return values;
}

// Values cut by /MaxLen cannot be found verbatim.
const verbatim = (f: FieldDef, value: string): boolean => f.type === 'text' && (f.max_length ?? Infinity) >= value.length;

describe('render() fills every fixture', () => {
  for (const fx of FIXTURES) {
    it(fx.file, async () => {
      const template = await inspector.inspect(readFixture(fx.file));
      const values = valuesFor(template.fields);
      const out = await renderer.render(template.pdf, template.fields, values);

      const check = qpdfCheck(out);
      assert.equal(check.status, 0, check.output);
      assert.equal(await blankGlyphsShown(out), 0, 'every character is drawn in a font that has it');

      const doc = await PDFDocument.load(out, { updateMetadata: false });
      const form = doc.getForm();
      assert.equal(form.hasXFA(), false, 'XFA is removed so viewers show the AcroForm values');
      assert.equal(form.acroForm.dict.has(PDFName.of('NeedAppearances')), false);
      for (const def of template.fields) {
        const field = form.getField(def.name);
        const value = values[def.name];
        if (field instanceof PDFTextField) {
          const expected = String(value).slice(0, def.max_length ?? Infinity);
          assert.equal(field.getText(), expected, `${def.name} holds its value`);
        } else if (field instanceof PDFCheckBox) {
          assert.equal(field.isChecked(), true, `${def.name} is checked`);
        } else if (field instanceof PDFRadioGroup) {
          const selected = radioChoices(field).find((c) => c.raw === field.getSelected());
          assert.equal(selected?.readable, value, `${def.name} selects its value`);
        } else if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
          const chosen = field.acroField.getValues().map((v) => v.decodeText());
          assert.deepEqual(chosen, [value], `${def.name} stores the export value`);
          assert.ok(selectChoices(field).some((c) => c.readable === value));
        }
      }

      const text = pdfToText(out);
      // Comb fields put each character in its own cell: pdftotext spaces them out and, in layout
      // mode, may interleave neighbouring text, so they are read in content-stream order instead.
      const squeezed = pdfToText(out, '-raw').replace(/\s+/g, '');
      const combed = new Set(form.getFields().filter((f) => f instanceof PDFTextField && f.isCombed()).map((f) => f.getName()));
      const visible = (f: FieldDef): boolean => (combed.has(f.name) ? squeezed : text).includes(String(values[f.name]));
      assert.ok(!text.includes('MUST-NOT-APPEAR'), 'signature fields stay empty');
      const expected = template.fields.filter((f) => verbatim(f, String(values[f.name])));
      const missing = expected.filter((f) => !visible(f));
      assert.deepEqual(missing.map((f) => f.name), [], 'every text value is visible to pdftotext');
      const scripts = SCRIPTS.filter((s) => expected.some((f) => String(values[f.name]).startsWith(s) && visible(f)));
      if (expected.length >= SCRIPTS.length) assert.deepEqual(scripts, SCRIPTS);
    });
  }
});
