// Rendering cost against the floor: raw @cantoo/pdf-lib load + fill the same fields + save.
// Run: node --import tsx bench/render.bench.ts   (one process; warm-up, then interleaved runs)
//
// Forms: osha_form_301_injury_report.pdf (1 page, 31 fields) and a 10-page form that qpdf merges
// from cdc_icar (6 pages) + lima (2) + osha (1) + openoffice (1): 242 fields after merging.
// Values are Latin-1 so the floor can use pdf-lib's default Helvetica appearances.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PDFCheckBox, PDFDocument, PDFDropdown, PDFOptionList, PDFRadioGroup, PDFTextField } from '@cantoo/pdf-lib';
import { detectTemplate } from '../src/pdf/inspect/detect-template.js';
import { createPdfWork, type FieldDef, type FieldValue, type PdfRenderer } from '../src/pdf/index.js';
import { createPdfRenderer } from '../src/pdf/fill/index.js';
import { median } from './stats.js';

export interface BenchResult { name: string; ours: number; floor: number; ratio: number; target: string }

const FIXTURES = fileURLToPath(new URL('../test/fixtures/pdfs/', import.meta.url));
const TEN_PAGES = ['cdc_icar_ltc_assessment.pdf', 'lima_oxygen_prescription_fr.pdf', 'osha_form_301_injury_report.pdf', 'openoffice_form_example.pdf'];

function mergedTenPages(): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'formsign-bench-'));
  try {
    const out = join(dir, 'ten.pdf');
    const run = spawnSync('qpdf', ['--empty', '--pages', ...TEN_PAGES.map((f) => join(FIXTURES, f)), '--', out], { encoding: 'utf8' });
    if (run.status !== 0 && run.status !== 3) throw new Error(`qpdf could not merge the 10-page form: ${run.stderr}`);
    return new Uint8Array(readFileSync(out));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function valuesFor(fields: FieldDef[]): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  fields.forEach((f, i) => {
    if (f.type === 'checkbox') values[f.name] = true;
    else if (f.type === 'radio' || f.type === 'select') values[f.name] = f.options?.[0] ?? null;
    else if (f.type !== 'signature') values[f.name] = `Value ${i}`.slice(0, f.max_length ?? Infinity);
  });
  return values;
}

/**
 * What a developer would write with pdf-lib alone for the same values: text as is, boxes checked,
 * and the first option of each choice (by pdf-lib's own option list, which our options follow).
 */
export async function floorFill(pdf: Uint8Array, values: Record<string, FieldValue>): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  const form = doc.getForm();
  for (const field of form.getFields()) {
    const value = values[field.getName()];
    if (value === undefined || value === null) continue;
    if (field instanceof PDFTextField) field.setText(String(value));
    else if (field instanceof PDFCheckBox) field.check();
    else if (field instanceof PDFRadioGroup || field instanceof PDFDropdown || field instanceof PDFOptionList) {
      const first = field.getOptions()[0];
      if (first !== undefined) field.select(first);
    }
  }
  return doc.save();
}


async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function compare(name: string, source: Uint8Array, iterations: number, renderer: PdfRenderer = createPdfRenderer()): Promise<BenchResult> {
  const template = await detectTemplate(source);
  const values = valuesFor(template.fields);
  const ours = (): Promise<unknown> => renderer.render(template.pdf, template.fields, values);
  const floor = (): Promise<unknown> => floorFill(template.pdf, values);
  for (let i = 0; i < 3; i++) { await ours(); await floor(); }
  const oursMs: number[] = [];
  const floorMs: number[] = [];
  for (let i = 0; i < iterations; i++) {
    // Alternate which goes first so neither always runs on a freshly collected heap.
    if (i % 2 === 0) { oursMs.push(await time(ours)); floorMs.push(await time(floor)); }
    else { floorMs.push(await time(floor)); oursMs.push(await time(ours)); }
  }
  const o = median(oursMs);
  const f = median(floorMs);
  return { name, ours: round(o), floor: round(f), ratio: round(o / f), target: '<= 1.2' };
}

const round = (n: number): number => Math.round(n * 100) / 100;

export async function run(): Promise<BenchResult[]> {
  const osha = new Uint8Array(readFileSync(join(FIXTURES, 'osha_form_301_injury_report.pdf')));
  const ten = mergedTenPages();
  // The service renders in the PDF pool: the same work in a worker thread, plus the hand-over.
  const work = createPdfWork({ workers: 1, jobCpuMs: 60_000, maxOldGenerationSizeMb: 512, maxQueued: 8 });
  try {
    return [
      await compare('render 1-page form (osha_form_301, 31 fields)', osha, 30),
      await compare('render 10-page form (qpdf merge of 4 fixtures, 242 fields)', ten, 12),
      await compare('render 1-page form through the PDF pool (worker thread)', osha, 30, work.renderer),
      await compare('render 10-page form through the PDF pool (worker thread)', ten, 12, work.renderer),
    ];
  } finally {
    await work.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await run()) {
    console.log(`${r.name}: ours ${r.ours} ms/op, floor ${r.floor} ms/op, ratio ${r.ratio} (target ${r.target})`);
  }
}
