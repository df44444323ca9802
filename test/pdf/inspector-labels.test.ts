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

async function detected(file: string | Uint8Array): Promise<FieldDef[]> {
  return (await inspector.inspect(typeof file === 'string' ? readFixture(file) : file)).fields;
}

async function labels(file: string | Uint8Array): Promise<Map<string, string | undefined>> {
  return new Map((await detected(file)).map((f: FieldDef) => [f.name, f.label]));
}

/** No label twice on one page (the builder flags what an edit makes so). */
function assertNoRepeatsPerPage(fields: readonly FieldDef[]): void {
  const seen = new Set<string>();
  for (const f of fields) {
    if (f.label === undefined) continue;
    const key = `${f.page} ${f.label.toLowerCase()}`;
    assert.ok(!seen.has(key), `"${f.label}" twice on page ${f.page}`);
    seen.add(key);
  }
}

describe('field labels on import', () => {
  it('the 1040 (XFA hybrid): every field labelled from the XFA template, the raw name kept', async () => {
    const fields1040 = await detected('irs_f1040_2019_xfa_hybrid.pdf');
    const l = new Map(fields1040.map((f) => [f.name, f.label]));
    assert.equal(l.size, 116);
    assert.equal([...l.values()].filter((v) => v === undefined).length, 0, 'every field has a label');
    assert.equal(l.get('topmostSubform[0].Page1[0].f1_02[0]'), 'Your first name and middle initial');
    // The two "Last name" fields on page 1 are told apart by the field before each on its line.
    assert.equal(l.get('topmostSubform[0].Page1[0].f1_03[0]'), 'Your first name and middle initial: Last name');
    assert.equal(l.get('topmostSubform[0].Page1[0].YourSocial_ReadOrderControl[0].f1_06[0]'), 'If joint return, spouse\'s first name and middle initial: Last name');
    assert.equal(l.get('topmostSubform[0].Page1[0].YourSocial_ReadOrderControl[0].f1_04[0]'), 'Your social security number');
    assert.equal(l.get('topmostSubform[0].Page1[0].FilingStatus[0].c1_01[1]'), 'Married filing jointly');
    // Letter-spaced abbreviations (the XFA's screen-reader spelling) joined.
    assert.equal(l.get('topmostSubform[0].Page1[0].FilingStatus[0].c1_01[3]'), 'Head of household (HOH)');
    assert.equal(l.get('topmostSubform[0].Page2[0].Signatures[0].f2_27[0]'), 'If the IRS sent you an Identity Protection PIN, enter it here (see inst.)');
    assert.equal(l.get('topmostSubform[0].Page2[0].PaidPreparer[0].Preparer[0].f2_33[0]'), 'PTIN');
    // "Phone no" three times on page 2: each joined with its section's heading.
    assert.equal(l.get('topmostSubform[0].Page2[0].ThirdPartyDesignee[0].f2_24[0]'), 'Third Party Designee (Other than paid preparer): Phone no');
    assert.equal(l.get('topmostSubform[0].Page2[0].Signatures[0].f2_30[0]'), 'Sign Here: Phone no');
    assert.equal(l.get('topmostSubform[0].Page2[0].PaidPreparer[0].Preparer[0].f2_35[0]'), 'Paid Preparer Use Only: Phone no');
    assert.equal(l.get('topmostSubform[0].Page1[0].ReadOrderControl[0].Address[0].f1_09[0]'), 'Apt. no');
    for (const label of l.values()) assert.doesNotMatch(label ?? '', /^Page \d|topmostSubform|\[0\]|\b[A-Z] [A-Z]\b|^[\p{P}\p{S}]/u);
    assertNoRepeatsPerPage(fields1040);
  });

  it('the DS-11: labels from /TU, and a literal "undefined" tooltip is no label', async () => {
    const l = await labels('us_state_ds11_passport_application.pdf');
    // A tooltip shorter than a name that is already words never replaces it ("City" was the country's).
    assert.equal(l.get('Applicant Address Country'), 'Applicant Address Country');
    assert.equal(l.get('Applicant Last Name'), 'Applicant Last Name');
    assert.equal(l.get('Applicant Address Zip Code'), 'Applicant Address Zip Code');
    // A longer tooltip still wins.
    assert.equal(l.get('Applicant Address Street'), 'Mailing Address Line 1: Street/RFD#, P.O. Box, or URB');
    assert.ok(![...l.values()].includes('undefined'));
  });

  it('the French prescription: labels from /TU, accents kept', async () => {
    const l = await labels('lima_oxygen_prescription_fr.pdf');
    assert.equal(l.get('NomPrénom 1'), 'Nom/Prénom [1]');
    assert.equal(l.get('TéléphoneNatel'), 'Téléphone/Natel');
    assert.equal(l.get('N dassurance sociale'), 'N° d’assurance sociale');
    assert.equal(l.get('Débit O2 à leffort'), 'Débit O2 à l’effort');
    assert.equal(l.get('B Diagnostic principal'), 'B) Diagnostic principal');
    // "[1]" is a reference, not a label; "Concentrateur" and "Gaz comprimé" twice on the page with
    // nothing to tell them apart are dropped (the field's name is shown).
    assert.equal(l.get('1'), undefined);
    assert.equal(l.get('Concentrateur_2'), undefined);
    assert.equal(l.get('Gaz comprimé'), undefined);
    assert.equal(l.get('Verordneter Arzt'), 'Verordneter Arzt');
    assertNoRepeatsPerPage(await detected('lima_oxygen_prescription_fr.pdf'));
  });

  it('placeholders, leaders and leading punctuation never reach a label; the JLPT form\'s six "none of the above" are dropped', async () => {
    const { tidyFieldLabel } = await import('../../src/pdf/inspect/label-rules.js');
    assert.equal(tidyFieldLabel('{{ 投资者名称 }}'), '投资者名称');
    assert.equal(tidyFieldLabel('Name: ________'), 'Name');
    assert.equal(tidyFieldLabel(', 2024, ending. Month and day'), '2024, ending. Month and day');
    assert.equal(tidyFieldLabel('[1]'), undefined);
    assert.equal(tidyFieldLabel('I R S'), 'IRS');
    assert.equal(tidyFieldLabel('____'), undefined);
    const jlpt = await detected('jlpt_application_2025_ja.pdf');
    assertNoRepeatsPerPage(jlpt);
    assert.equal(jlpt.find((f) => f.name === 'Check Box6')?.label, '漫画 manga', 'a coded name never beats a tooltip');
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
