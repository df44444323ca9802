import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFDocument, PDFCheckBox, PDFDropdown, PDFHexString, PDFName, PDFRadioGroup, PDFString, PDFTextField } from '@cantoo/pdf-lib';
import { generateBuiltin } from '../../src/domain/generate/builtin.js';
import { layoutForm, type LayoutRequest } from '../../src/pdf/index.js';
import { acroFieldNames, pdfText, qpdfCheck } from './support.js';

// The generated PDF: qpdf accepts it, every field is a real AcroForm field of the right kind at the
// place its FieldDef says, fields never cross a page's margin (page breaks never split a field), A4
// and Letter sizes, and text in any script is drawn with a face that has it.

function request(prompt: string, pageSize: 'letter' | 'a4' = 'letter'): LayoutRequest {
  const spec = generateBuiltin(prompt);
  return { title: spec.title, fields: spec.fields, signers: spec.signers, pageSize, language: spec.language, requiredNote: '* required' };
}

describe('generated PDF layout', () => {
  it('is a valid AcroForm with each field of its kind', async () => {
    const req = request('Event registration: full name, email, number of guests, meal (chicken, fish, vegetarian), country (France, Spain, Germany, Italy, Other), comments, I agree to be photographed. Guest signature, date signed, initials.');
    const out = await layoutForm(req);
    assert.ok(qpdfCheck(out.pdf).ok);
    const doc = await PDFDocument.load(out.pdf);
    const form = doc.getForm();
    assert.ok(form.getField('full_name') instanceof PDFTextField);
    assert.ok(form.getField('meal') instanceof PDFRadioGroup);
    assert.deepEqual((form.getField('meal') as PDFRadioGroup).getOptions(), ['Chicken', 'Fish', 'Vegetarian']);
    assert.ok(form.getField('country') instanceof PDFDropdown);
    assert.ok(form.getField('agree_photographed') instanceof PDFCheckBox);
    assert.ok((form.getField('comments') as PDFTextField).isMultiline());
    assert.ok(form.getField('full_name').isRequired());
    const names = await acroFieldNames(out.pdf);
    assert.deepEqual(new Set(names), new Set(out.fields.map((f) => f.name)));
    // Signing fields come last, in their signer's block.
    const signing = out.fields.map((f) => ['signature', 'initials', 'date_signed'].includes(f.type));
    assert.deepEqual(signing, [...signing].sort((a, b) => Number(a) - Number(b)));
    assert.equal(signing.filter(Boolean).length, 3);
    // The widget of a text field is where its FieldDef says (top-left origin).
    const page = doc.getPage(0);
    const def = out.fields.find((f) => f.name === 'full_name')!;
    const rect = (form.getField('full_name') as PDFTextField).acroField.getWidgets()[0]!.getRectangle();
    assert.ok(Math.abs(rect.x - (def.x + 0.5)) < 1 && Math.abs(page.getHeight() - (rect.y + rect.height) - (def.y + 0.5)) < 1, JSON.stringify({ rect, def }));
    const text = pdfText(out.pdf);
    assert.match(text, /Event registration/);
    assert.match(text, /Guest signature/);
  });

  it('breaks pages between fields, never through one, on Letter and A4', async () => {
    const long = `Long form: ${Array.from({ length: 58 }, (_, i) => `${['comments', 'email', 'size (S, M, L)', 'address', 'I agree to rule'][i % 5]} ${i}`).join(', ')}. Buyer and seller sign.`;
    for (const size of ['letter', 'a4'] as const) {
      const out = await layoutForm(request(long, size));
      assert.ok(out.pageCount >= 3, `${out.pageCount} pages`);
      const doc = await PDFDocument.load(out.pdf);
      const [w, h] = size === 'a4' ? [595.28, 841.89] : [612, 792];
      assert.equal(Math.round(doc.getPage(0).getWidth()), Math.round(w));
      for (const f of out.fields) {
        assert.ok(f.page >= 1 && f.page <= out.pageCount);
        assert.ok(f.x >= 54 - 1 && f.x + f.width <= w - 54 + 1, `${f.name} x`);
        assert.ok(f.y >= 54 - 1 && f.y + f.height <= h - 54 + 1, `${f.name} on page ${f.page}: ${f.y}+${f.height}`);
      }
      assert.ok(qpdfCheck(out.pdf).ok);
    }
  });

  it('draws labels in other scripts with a face that has them and escapes nothing into syntax', async () => {
    const out = await layoutForm({
      title: 'Анкета (Ελληνικά) ) Tj /JS (x)', pageSize: 'a4', signers: [{ slot: 1, role: 'Подписант' }],
      fields: [
        { name: 'imya', label: 'Имя', type: 'text', required: true, signer: 1 },
        { name: 'shimei', label: '氏名', type: 'text', required: false, signer: 1 },
        { name: 'podpis', label: 'Подпись', type: 'signature', required: true, signer: 1 },
      ],
    });
    assert.ok(qpdfCheck(out.pdf).ok);
    const text = pdfText(out.pdf);
    assert.match(text, /Анкета/);
    assert.match(text, /Имя/);
    assert.match(text, /氏名/, 'a Japanese label beside Cyrillic ones gets a face that has it');
    assert.doesNotMatch(Buffer.from(out.pdf).toString('latin1'), /\/JS\s*\(x\)/);
  });

  it('writes the language, title, labels, options and roles as strings that nothing in them can end', async () => {
    const nasty = String.raw`a) /OpenAction 3 0 R /X (b \) \\ (`;
    const language = 'en)/OpenAction 3 0 R/X(';
    const out = await layoutForm({
      title: `Title ${nasty}`, pageSize: 'letter', language, requiredNote: `* ${nasty}`,
      signers: [{ slot: 1, role: `Role ${nasty}` }],
      fields: [
        { name: 'full_name', label: `Name ${nasty}`, type: 'text', required: true, signer: 1 },
        { name: 'colour', label: `Colour ${nasty}`, type: 'radio', required: false, signer: 1, options: [`Red ${nasty}`, 'Blue']},
        { name: 'size', label: `Size ${nasty}`, type: 'select', required: false, signer: 1, options: [`S ${nasty}`, 'M'] },
        { name: 'agree', label: `Agree ${nasty}`, type: 'checkbox', required: false, signer: 1 },
        { name: 'sig', label: `Signature ${nasty}`, type: 'signature', required: true, signer: 1 },
        { name: 'ini', label: `Initials ${nasty}`, type: 'initials', required: false, signer: 1 },
      ],
    });
    const check = qpdfCheck(out.pdf);
    assert.ok(check.ok, check.output);
    const doc = await PDFDocument.load(out.pdf);
    assert.equal(doc.catalog.get(PDFName.of('OpenAction')), undefined, 'no /OpenAction in the catalog');
    assert.deepEqual(doc.catalog.keys().map((k) => k.asString()).filter((k) => k === '/X' || k === '/OpenAction'), []);
    const lang = doc.catalog.lookup(PDFName.of('Lang'));
    assert.ok(lang instanceof PDFHexString || lang instanceof PDFString, String(lang));
    assert.equal(lang.decodeText(), language, 'the tag is kept verbatim as one string');
    assert.equal(doc.getTitle(), `Title ${nasty}`);
    const form = doc.getForm();
    assert.deepEqual(new Set(form.getFields().map((f) => f.getName())), new Set(['full_name', 'colour', 'size', 'agree', 'sig', 'ini']));
    assert.deepEqual((form.getField('colour') as PDFRadioGroup).getOptions(), [`Red ${nasty}`, 'Blue']);
    assert.deepEqual((form.getField('size') as PDFDropdown).getOptions(), [`S ${nasty}`, 'M']);
    // No object anywhere picked up an action from the text.
    for (const [, obj] of doc.context.enumerateIndirectObjects()) {
      assert.doesNotMatch(obj.toString(), /\/OpenAction|\/JavaScript|\/S \/JS/);
    }
  });

  it('breaks many signatures across pages by rows, every field inside its page', async () => {
    const inside = (out: Awaited<ReturnType<typeof layoutForm>>, h: number, w: number): void => {
      for (const f of out.fields) {
        assert.ok(f.page >= 1 && f.page <= out.pageCount, `${f.name} page ${f.page} of ${out.pageCount}`);
        assert.ok(f.x >= 54 - 1 && f.x + f.width <= w - 54 + 1, `${f.name} x ${f.x}+${f.width}`);
        assert.ok(f.y >= 54 - 1 && f.y + f.height <= h - 54 + 1, `${f.name} on page ${f.page}: ${f.y}+${f.height}`);
      }
    };
    const one = await layoutForm({
      title: 'Many signatures', pageSize: 'letter', signers: [{ slot: 1, role: 'Signer' }],
      fields: [
        { name: 'full_name', label: 'Full name', type: 'text', required: true, signer: 1 },
        ...Array.from({ length: 12 }, (_, i) => ({ name: `sig_${i + 1}`, label: `Signature ${i + 1}`, type: 'signature' as const, required: true, signer: 1 })),
        { name: 'ini', label: 'Initials', type: 'initials', required: false, signer: 1 },
        { name: 'signed_on', label: 'Date', type: 'date_signed', required: false, signer: 1 },
      ],
    });
    inside(one, 792, 612);
    assert.ok(one.pageCount >= 2, `${one.pageCount} pages`);
    assert.equal(one.fields.filter((f) => f.type === 'signature').length, 12);
    // Rows keep their order and each page's signatures stack downwards.
    const sigs = one.fields.filter((f) => f.type === 'signature');
    for (let i = 1; i < sigs.length; i++) {
      const [a, b] = [sigs[i - 1]!, sigs[i]!];
      assert.ok(b.page > a.page || (b.page === a.page && b.y > a.y), `${b.name} after ${a.name}`);
    }
    // Initials and the date sit beside the first signature.
    for (const n of ['ini', 'signed_on']) assert.equal(one.fields.find((f) => f.name === n)!.page, sigs[0]!.page);
    assert.ok(qpdfCheck(one.pdf).ok);
    const doc = await PDFDocument.load(one.pdf);
    assert.equal(doc.getPageCount(), one.pageCount);

    const six = await layoutForm({
      title: 'Six signers', pageSize: 'a4',
      signers: Array.from({ length: 6 }, (_, i) => ({ slot: i + 1, role: `Party ${i + 1}` })),
      fields: Array.from({ length: 6 }, (_, s) => Array.from({ length: 3 }, (_, k) => ({
        name: `p${s + 1}_sig_${k + 1}`, label: `Party ${s + 1} signature ${k + 1}`, type: 'signature' as const, required: true, signer: s + 1,
      }))).flat(),
    });
    inside(six, 841.89, 595.28);
    assert.equal(six.fields.length, 18);
    // A signer's block fits on one page, so it is never split.
    for (let s = 1; s <= 6; s++) {
      const pagesOf = new Set(six.fields.filter((f) => f.signer === s).map((f) => f.page));
      assert.equal(pagesOf.size, 1, `signer ${s} on pages ${[...pagesOf].join(', ')}`);
    }
    assert.ok(qpdfCheck(six.pdf).ok);
  });
});
