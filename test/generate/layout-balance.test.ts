import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateBuiltin } from '../../src/domain/generate/builtin.js';
import { layoutForm, type LayoutField } from '../../src/pdf/index.js';
import { loadReal } from './corpus/real-score.js';
import { pdfText } from './support.js';

// Issue 28's layout: no page that holds only signature blocks when content could keep them company,
// section headings where the description groups fields, and a field's condition under its label.

const SIGNING = new Set(['signature', 'initials', 'date_signed']);

async function pagesOf(fields: readonly LayoutField[], signers: Array<{ slot: number; role: string }>, pageSize: 'letter' | 'a4', title = 'Form') {
  const out = await layoutForm({ title, fields, signers, pageSize, requiredNote: '* required' });
  return { out, lastPage: out.fields.filter((f) => f.page === out.pageCount) };
}

describe('generated PDF layout: balance, sections and conditions', () => {
  it('never leaves the signature blocks alone on the last page (corpus, and bodies of every length)', async () => {
    const orphans: string[] = [];
    for (const c of loadReal()) {
      const spec = generateBuiltin(c.prompt);
      for (const size of ['letter', 'a4'] as const) {
        const { out, lastPage } = await pagesOf(spec.fields, spec.signers, size, spec.title);
        if (out.pageCount > 1 && lastPage.every((f) => SIGNING.has(f.type))) orphans.push(`${c.id}/${size}`);
      }
    }
    assert.deepEqual(orphans, []);
    // Bodies of 1…40 text fields with two signers: whatever the length, the last page has a body field.
    for (let n = 1; n <= 40; n++) {
      const fields: LayoutField[] = Array.from({ length: n }, (_, i) => ({ name: `f${i}`, label: `Question ${i + 1} with a longer label to fill the line`, type: 'text', required: true, signer: 1 }));
      fields.push({ name: 's1', label: 'Tenant signature', type: 'signature', required: true, signer: 1 }, { name: 'd1', label: 'Date signed', type: 'date_signed', required: false, signer: 1 });
      fields.push({ name: 's2', label: 'Landlord signature', type: 'signature', required: true, signer: 2 });
      const { out, lastPage } = await pagesOf(fields, [{ slot: 1, role: 'Tenant' }, { slot: 2, role: 'Landlord' }], 'letter');
      assert.ok(out.pageCount === 1 || lastPage.some((f) => !SIGNING.has(f.type)), `${n} fields: last page holds only ${lastPage.map((f) => f.name).join(', ')}`);
      // Nothing is lost or doubled by the move.
      assert.equal(out.fields.length, fields.length);
    }
  });

  it('draws section headings and conditions under labels', async () => {
    const spec = generateBuiltin('Job application\nPersonal details:\n- Full name\n- Email\nExperience:\n- Previous employer\n- Co-signer name (if applicable)\nApplicant signs.');
    assert.equal(spec.fields.find((f) => f.label === 'Co-signer name')?.description, 'If applicable');
    const { out } = await pagesOf(spec.fields, spec.signers, 'letter', spec.title);
    const text = pdfText(out.pdf);
    const at = (s: string): number => text.indexOf(s);
    assert.ok(at('Personal details') >= 0 && at('Experience') > at('Personal details'), text);
    assert.ok(at('Full name') > at('Personal details') && at('Previous employer') > at('Experience'), text);
    assert.ok(at('If applicable') > at('Co-signer name'), text);
  });
});
