// Hostile and unusable uploads: each is refused with the right code, quickly, and the inspector
// keeps working afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPdfInspector, PdfRejectedError, type PdfInspector, type PdfRejectionCode } from '../../src/pdf/index.js';
import { qpdfCheck, qpdfEncrypt, readFixture } from './support/fixtures.js';
import { contentStreamBomb, decompressionBomb, deeplyNested, headerThenGarbage, heapHog, randomNoise, signedPdf } from './support/hostile-pdfs.js';

const LIMIT_MS = 5_000;
let inspector: PdfInspector;

before(async () => {
  inspector = createPdfInspector({ timeoutMs: 4_000, maxOldGenerationSizeMb: 128 });
  await inspector.inspect(readFixture('openoffice_form_example.pdf')); // start the worker outside the timings
});
after(() => inspector.close());

async function expectRejection(insp: PdfInspector, bytes: Uint8Array, code: PdfRejectionCode, message?: RegExp): Promise<void> {
  const started = performance.now();
  await assert.rejects(insp.inspect(bytes), (err: unknown) => {
    assert.ok(err instanceof PdfRejectedError, `a PdfRejectedError, got ${String(err)}`);
    assert.equal(err.code, code);
    assert.match(err.message, /^[A-Z].+\.$/, 'a sentence for a person');
    if (message) assert.match(err.message, message);
    return true;
  });
  const elapsed = performance.now() - started;
  assert.ok(elapsed < LIMIT_MS, `refused in ${Math.round(elapsed)} ms`);
}

/**
 * A normal form still imports. Its fields all carry tooltips, so this stays within the small limits
 * below: labelling untitled fields from the page's text loads pdf.js (about 1 s of CPU and 100 MB of
 * heap the first time in a worker), which the default limits (10 s, 256 MB) allow.
 */
async function stillWorks(insp: PdfInspector): Promise<void> {
  const r = await insp.inspect(readFixture(ALL_LABELLED));
  assert.equal(r.fields.length, 28);
}
const ALL_LABELLED = 'interactive_form_example_indesign.pdf';

describe('refusals', () => {
  it('random bytes → pdf_invalid', async () => {
    await expectRejection(inspector, randomNoise(64 * 1024), 'pdf_invalid', /not a PDF/);
    await stillWorks(inspector);
  });

  it('a truncated fixture → pdf_invalid', async () => {
    const full = readFixture('osha_form_301_injury_report.pdf');
    await expectRejection(inspector, full.subarray(0, Math.floor(full.length * 0.6)), 'pdf_invalid', /incomplete/);
    await stillWorks(inspector);
  });

  it('a fixture cut short and given a new %%EOF → pdf_invalid, not a template with missing parts', async () => {
    // pdf-lib loads what survived; these pages and fields point at fonts and objects that are gone.
    for (const [file, kept] of [['osha_form_301_injury_report.pdf', 0.3], ['us_state_ds11_passport_application.pdf', 0.9], ['lima_oxygen_prescription_fr.pdf', 0.97]] as const) {
      const full = readFixture(file);
      const cut = Buffer.concat([full.subarray(0, Math.floor(full.length * kept)), Buffer.from('\n%%EOF\n')]);
      await expectRejection(inspector, cut, 'pdf_invalid', /damaged or incomplete/);
    }
    await stillWorks(inspector);
  });

  it('a cut that loses nothing the pages or fields use still imports', async () => {
    // The last tenth of this file holds only objects outside the page tree and the AcroForm.
    const full = readFixture('openoffice_form_example.pdf');
    const cut = Buffer.concat([full.subarray(0, Math.floor(full.length * 0.9)), Buffer.from('\n%%EOF\n')]);
    const t = await inspector.inspect(cut);
    assert.equal(t.fields.length, 12);
    assert.equal(t.pageCount, 1);
  });

  it('%PDF-1.7 followed by garbage → pdf_invalid', async () => {
    await expectRejection(inspector, headerThenGarbage(32 * 1024), 'pdf_invalid');
    await stillWorks(inspector);
  });

  it('an encrypted PDF with a real user password → pdf_encrypted', async () => {
    const locked = qpdfEncrypt(readFixture('openoffice_form_example.pdf'), 'user-secret');
    await expectRejection(inspector, locked, 'pdf_encrypted', /password/);
    await stillWorks(inspector);
  });

  it('a PDF whose signature field holds a signature → pdf_already_signed', async () => {
    await expectRejection(inspector, await signedPdf('sig-value'), 'pdf_already_signed', /Signature1/);
    await stillWorks(inspector);
  });

  it('a DocMDP-certified PDF → pdf_already_signed', async () => {
    await expectRejection(inspector, await signedPdf('docmdp'), 'pdf_already_signed', /certified/);
  });

  it('a 4 GiB FlateDecode bomb → pdf_invalid, without inflating it', async () => {
    const rssBefore = process.memoryUsage().rss;
    await expectRejection(inspector, decompressionBomb(4), 'pdf_invalid', /expands/);
    // The main thread never touches the data; the worker stops at its 128 MiB stream budget.
    assert.ok(process.memoryUsage().rss - rssBefore < 1024 * 1024 * 1024);
    await stillWorks(inspector);
  });

  it('a page whose content stream is a 2 GiB bomb still imports, its field unlabelled, without inflating it', async () => {
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const r = await inspector.inspect(contentStreamBomb(2));
    assert.ok(performance.now() - started < LIMIT_MS, 'inspected in time');
    assert.deepEqual(r.fields.map((f) => [f.name, f.label]), [['applicant_name', undefined]]);
    assert.ok(process.memoryUsage().rss - rssBefore < 1024 * 1024 * 1024);
    await stillWorks(inspector);
  });

  it('objects nested 200,000 deep → pdf_invalid', async () => {
    await expectRejection(inspector, deeplyNested(200_000), 'pdf_invalid');
    await stillWorks(inspector);
  });

  it('a worker that exceeds its heap limit → pdf_invalid, and a new worker takes over', async () => {
    // Room for pdf.js, which every import now loads to read text tags (issue 41); far below what the hog needs.
    const small = createPdfInspector({ timeoutMs: 4_000, maxOldGenerationSizeMb: 128 });
    try {
      await small.inspect(readFixture(ALL_LABELLED));
      await expectRejection(small, heapHog(6_000_000), 'pdf_invalid', /memory/);
      await stillWorks(small);
    } finally {
      await small.close();
    }
  });

  it('a worker that exceeds the time limit is terminated → pdf_invalid', async () => {
    const hurried = createPdfInspector({ timeoutMs: 250, maxOldGenerationSizeMb: 2048 });
    try {
      await hurried.inspect(readFixture(ALL_LABELLED));
      await expectRejection(hurried, heapHog(6_000_000), 'pdf_invalid', /too long/);
      await stillWorks(hurried);
    } finally {
      await hurried.close();
    }
  });
});

describe('accepted with care', () => {
  it('an AES-256 PDF with an empty user password is decrypted and imported', async () => {
    const locked = qpdfEncrypt(readFixture('openoffice_form_example.pdf'), '');
    const r = await inspector.inspect(locked);
    assert.equal(r.fields.length, 12);
    assert.match(qpdfCheck(r.pdf).output, /File is not encrypted/);
  });

  it('close() rejects running and queued work instead of leaving it pending', async () => {
    const short = createPdfInspector({ timeoutMs: 10_000, maxOldGenerationSizeMb: 2048 });
    await short.inspect(readFixture('openoffice_form_example.pdf'));
    const running = short.inspect(heapHog(6_000_000));
    const queued = short.inspect(readFixture('openoffice_form_example.pdf'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await short.close();
    await assert.rejects(running, /closed/);
    await assert.rejects(queued, /closed/);
    await assert.rejects(short.inspect(readFixture('openoffice_form_example.pdf')), /closed/);
  });
});
