import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPdfInspector, makeSampleTemplatePdf, type PdfInspector } from '../../src/pdf/index.js';
import { createPdfRenderer } from '../../src/pdf/fill/index.js';
import { pdfToText, qpdfCheck } from './support/fixtures.js';

let inspector: PdfInspector;
before(() => { inspector = createPdfInspector({ timeoutMs: 5_000, maxOldGenerationSizeMb: 128 }); });
after(() => inspector.close());

describe('makeSampleTemplatePdf', () => {
  it('produces a valid one-page agreement whose fields inspect() finds exactly', async () => {
    const sample = await makeSampleTemplatePdf();
    assert.equal(sample.pageCount, 1);
    assert.equal(qpdfCheck(sample.pdf).status, 0);
    assert.match(pdfToText(sample.pdf), /Sample agreement/);

    const detected = await inspector.inspect(sample.pdf);
    assert.equal(detected.pageCount, 1);
    assert.deepEqual(detected.warnings, []);
    assert.deepEqual(detected.fields.map((f) => f.name), ['full_name', 'email', 'date', 'agree', 'signature']);
    // A PDF has no email or date field type: those are text fields there, richer in the FieldDef.
    const asPdfSeesIt = sample.fields.map((f) => (f.type === 'email' || f.type === 'date' ? { ...f, type: 'text' as const } : f));
    assert.deepEqual(detected.fields, asPdfSeesIt);
    assert.deepEqual(sample.fields.map((f) => f.type), ['text', 'email', 'date', 'checkbox', 'signature']);
    assert.equal(sample.fields.find((f) => f.name === 'full_name')?.required, true);
  });

  it('can be filled by the renderer', async () => {
    const sample = await makeSampleTemplatePdf();
    const out = await createPdfRenderer().render(sample.pdf, sample.fields, {
      full_name: 'Ada Łovelace', email: 'ada@example.org', date: '2025-01-31', agree: true,
    });
    const text = pdfToText(out);
    for (const v of ['Ada Łovelace', 'ada@example.org', '2025-01-31']) assert.ok(text.includes(v), v);
  });
});
