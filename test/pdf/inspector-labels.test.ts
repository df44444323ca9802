// Labels people understand: /TU, else the XFA template's tooltip/speak of the same field, else the
// nearest printed text to the left or above; the raw name always stays `name`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { createPdfInspector, type FieldDef, type PdfInspector } from '../../src/pdf/index.js';
import { readFixture } from './support/fixtures.js';

let inspector: PdfInspector;
before(() => { inspector = createPdfInspector({ timeoutMs: 20_000, maxOldGenerationSizeMb: 256 }); });
after(() => inspector.close());

async function labels(file: string | Uint8Array): Promise<Map<string, string | undefined>> {
  const { fields } = await inspector.inspect(typeof file === 'string' ? readFixture(file) : file);
  return new Map(fields.map((f: FieldDef) => [f.name, f.label]));
}

describe('field labels on import', () => {
  it('the 1040 (XFA hybrid): every field labelled from the XFA template, the raw name kept', async () => {
    const l = await labels('irs_f1040_2019_xfa_hybrid.pdf');
    assert.equal(l.size, 116);
    assert.equal([...l.values()].filter((v) => v === undefined).length, 0, 'every field has a label');
    assert.equal(l.get('topmostSubform[0].Page1[0].f1_02[0]'), 'Your first name and middle initial');
    assert.equal(l.get('topmostSubform[0].Page1[0].f1_03[0]'), 'Last name');
    assert.equal(l.get('topmostSubform[0].Page1[0].YourSocial_ReadOrderControl[0].f1_04[0]'), 'Your social security number');
    assert.equal(l.get('topmostSubform[0].Page1[0].FilingStatus[0].c1_01[1]'), 'Married filing jointly');
    assert.equal(l.get('topmostSubform[0].Page1[0].FilingStatus[0].c1_01[3]'), 'Head of household (H O H)');
    assert.equal(l.get('topmostSubform[0].Page1[0].ReadOrderControl[0].Address[0].f1_09[0]'), 'Apt. no');
    for (const label of l.values()) assert.doesNotMatch(label ?? '', /^Page \d|topmostSubform|\[0\]/);
  });

  it('the DS-11: labels from /TU, and a literal "undefined" tooltip is no label', async () => {
    const l = await labels('us_state_ds11_passport_application.pdf');
    assert.equal(l.get('Applicant Last Name'), 'Name Last');
    assert.equal(l.get('Applicant First Name'), 'First');
    assert.equal(l.get('Applicant Address Street'), 'Mailing Address Line 1: Street/RFD#, P.O. Box, or URB');
    assert.equal(l.get('Applicant Address Zip Code'), 'Zip Code');
    assert.ok(![...l.values()].includes('undefined'));
  });

  it('the French prescription: labels from /TU, accents kept', async () => {
    const l = await labels('lima_oxygen_prescription_fr.pdf');
    assert.equal(l.get('NomPrénom 1'), 'Nom/Prénom [1]');
    assert.equal(l.get('TéléphoneNatel'), 'Téléphone/Natel');
    assert.equal(l.get('N dassurance sociale'), 'N° d’assurance sociale');
    assert.equal(l.get('Débit O2 à leffort'), 'Débit O2 à l’effort');
    assert.equal(l.get('B Diagnostic principal'), 'B) Diagnostic principal');
  });

  it('a form without tooltips: the nearest text to the left or above (Scribus, German)', async () => {
    const l = await labels('scribus_membership_application_de.pdf');
    assert.equal(l.get('_e'), 'Vorname(n)');
    assert.equal(l.get('i'), 'Nachname');
    assert.equal(l.get('g'), 'PLZ');
    assert.equal(l.get('d'), 'E-Mail-Adresse(n)');
  });

  it('a flat PDF: left on the same line wins over above; far text labels nothing', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([600, 400]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const form = doc.getForm();
    // y is from the bottom in PDF space.
    page.drawText('Monthly rent:', { x: 40, y: 344, size: 11, font });
    form.createTextField('f1').addToPage(page, { x: 130, y: 340, width: 120, height: 18 });
    page.drawText('E-mail address', { x: 300, y: 362, size: 9, font });
    form.createTextField('f2').addToPage(page, { x: 300, y: 340, width: 200, height: 18 });
    page.drawText('Far away', { x: 40, y: 40, size: 9, font });
    form.createTextField('f3').addToPage(page, { x: 300, y: 200, width: 200, height: 18 });
    const l = await labels(await doc.save());
    assert.equal(l.get('f1'), 'Monthly rent');
    assert.equal(l.get('f2'), 'E-mail address');
    assert.equal(l.get('f3'), undefined);
  });
});
