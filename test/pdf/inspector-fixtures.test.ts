// The inspector against the ten real-world forms in test/fixtures/pdfs (see SOURCES.md there).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PDFDocument } from '@cantoo/pdf-lib';
import { createPdfInspector, type DetectedTemplate, type FieldType, type PdfInspector } from '../../src/pdf/index.js';
import { FIXTURES, qpdfCheck, readFixture } from './support/fixtures.js';

let inspector: PdfInspector;
const results = new Map<string, DetectedTemplate>();

async function detected(file: string): Promise<DetectedTemplate> {
  let r = results.get(file);
  if (!r) {
    r = await inspector.inspect(readFixture(file));
    results.set(file, r);
  }
  return r;
}

before(() => { inspector = createPdfInspector({ timeoutMs: 10_000, maxOldGenerationSizeMb: 256 }); });
after(() => inspector.close());

describe('inspect() on every fixture', () => {
  for (const fx of FIXTURES) {
    it(`${fx.file}: field types, pages, geometry and warnings`, async () => {
      const r = await detected(fx.file);
      const counts: Partial<Record<FieldType, number>> = {};
      for (const f of r.fields) counts[f.type] = (counts[f.type] ?? 0) + 1;
      assert.deepEqual(counts, fx.counts);
      assert.equal(r.pageCount, fx.pages);
      assert.equal(new Set(r.fields.map((f) => f.name)).size, r.fields.length, 'names are unique');

      const doc = await PDFDocument.load(r.pdf, { updateMetadata: false });
      for (const f of r.fields) {
        assert.ok(Number.isInteger(f.page) && f.page >= 1 && f.page <= r.pageCount, `${f.name}: page ${f.page}`);
        const { width, height } = doc.getPage(f.page - 1).getSize();
        assert.ok(f.width > 0 && f.height > 0, `${f.name}: positive size`);
        assert.ok(f.x >= 0 && f.y >= 0 && f.x + f.width <= width + 0.01 && f.y + f.height <= height + 0.01,
          `${f.name}: ${JSON.stringify([f.x, f.y, f.width, f.height])} inside ${width}x${height}`);
        for (const n of [f.x, f.y, f.width, f.height]) assert.equal(Math.round(n * 100) / 100, n, 'rounded to 2 decimals');
        assert.equal(f.signer, 1);
        if (f.type === 'radio' || f.type === 'select') {
          assert.ok(f.options && f.options.length > 0, `${f.name}: has options`);
          assert.equal(new Set(f.options).size, f.options.length, `${f.name}: options are unique`);
          assert.ok(f.options.every((o) => o !== ''), `${f.name}: no empty option`);
        } else {
          assert.equal(f.options, undefined);
        }
      }

      const xfaWarnings = r.warnings.filter((w) => w.includes('XFA'));
      assert.equal(xfaWarnings.length, fx.xfa ? 1 : 0);
      const buttonWarning = r.warnings.find((w) => w.includes('push button'));
      if (fx.pushButtons === 0) assert.equal(buttonWarning, undefined);
      else assert.match(buttonWarning ?? '', new RegExp(`^Skipped ${fx.pushButtons} push button`));
    });
  }
});

describe('inspect() details', () => {
  it('decrypts the AES-encrypted I-90 (empty user password) and stores a readable copy', async () => {
    const original = readFixture('uscis_i90_encrypted_xfa.pdf');
    const r = await detected('uscis_i90_encrypted_xfa.pdf');
    assert.equal(r.fields.length, 195);
    assert.notDeepEqual(r.pdf, original);
    assert.match(qpdfCheck(r.pdf).output, /File is not encrypted/);
    const doc = await PDFDocument.load(r.pdf, { updateMetadata: false });
    assert.equal(doc.isEncrypted, false);
    assert.equal(doc.getForm().getFields().length, 195);
    assert.ok(r.fields.some((f) => f.type === 'select' && f.options && f.options.length > 10));
  });

  it('returns the upload itself when nothing had to be decrypted or removed', async () => {
    // Its only /OpenAction is a plain "go to page 1", which stays.
    const r = await detected('openoffice_form_example.pdf');
    assert.deepEqual(r.pdf, readFixture('openoffice_form_example.pdf'));
    assert.ok(!r.warnings.some((w) => /active content/.test(w)));
  });

  it('removes the scripts real forms carry, and says so', async () => {
    const r = await detected('osha_form_301_injury_report.pdf');
    assert.notDeepEqual(r.pdf, readFixture('osha_form_301_injury_report.pdf'));
    assert.ok(r.warnings.some((w) => /^Removed active content .*\d+ scripts/.test(w)), r.warnings.join('\n'));
  });

  it('turns the JLPT Shift-JIS radio export names into readable, distinct Japanese', async () => {
    const radio = (await detected('jlpt_application_2025_ja.pdf')).fields.find((f) => f.type === 'radio');
    assert.deepEqual(radio?.options, ['選択内容1', '選択内容3', '選択内容2']);
  });

  it('reads text properties, tooltips and flags', async () => {
    const cdc = (await detected('cdc_icar_ltc_assessment.pdf')).fields;
    assert.equal(cdc.filter((f) => f.multiline).length, 43);
    // A radio export name in PDFDocEncoding (byte 0x90), not Shift-JIS.
    assert.equal(cdc.find((f) => f.name === 'LTC 9a 1')?.options?.[0], 'Resident’s room');
    const irs = (await detected('irs_f1040_2019_xfa_hybrid.pdf')).fields;
    assert.equal(irs.filter((f) => f.max_length !== undefined).length, 13);
    const oo = (await detected('openoffice_form_example.pdf')).fields;
    const first = oo.find((f) => f.name === 'firstName');
    assert.equal(first?.label, 'First name');
    assert.equal(first?.max_length, 40);
    assert.deepEqual(oo.find((f) => f.name === 'educationLevel')?.options, ['highSchool', 'associateDegree', 'bachelorDegree', 'masterDegree']);
    // Option lists use export values, which differ from the shown text in this form.
    assert.deepEqual(oo.find((f) => f.name === 'databases')?.options?.slice(0, 2), ['oracle', 'sqlServer']);
    const lima = (await detected('lima_oxygen_prescription_fr.pdf')).fields;
    assert.ok(lima.some((f) => f.name.includes('é')), 'non-ASCII field names survive');
  });

  it('keeps an empty signature field as a signature field', async () => {
    const sig = (await detected('interactive_form_example_indesign.pdf')).fields.filter((f) => f.type === 'signature');
    assert.equal(sig.length, 1);
  });

  it('places a field at its first visible widget (JLPT keeps copies above the page)', async () => {
    const text1 = (await detected('jlpt_application_2025_ja.pdf')).fields.find((f) => f.name === 'Text1');
    assert.equal(text1?.page, 1);
    assert.ok(text1 && text1.y > 100 && text1.y < 200, `y=${text1?.y}`);
  });
});
