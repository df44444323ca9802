// Shared test helpers: the real-world fixtures (test/fixtures/pdfs) and the Debian tools
// (qpdf, pdftotext) used as independent judges of our output.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePDFRawStream, PDFDocument, PDFRawStream } from '@cantoo/pdf-lib';
import type { FieldType } from '../../../src/pdf/index.js';

export const FIXTURE_DIR = fileURLToPath(new URL('../../fixtures/pdfs/', import.meta.url));

export const readFixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(FIXTURE_DIR, name)));

type Counts = Partial<Record<FieldType, number>>;
export interface FixtureExpectation { file: string; pages: number; counts: Counts; pushButtons: number; xfa: boolean }

/** Per SOURCES.md; select = dropdowns + option lists, push buttons are skipped by the inspector. */
export const FIXTURES: FixtureExpectation[] = [
  { file: 'irs_f1040_2019_xfa_hybrid.pdf', pages: 2, counts: { text: 82, checkbox: 34 }, pushButtons: 0, xfa: true },
  { file: 'us_state_ds11_passport_application.pdf', pages: 6, counts: { text: 65, checkbox: 16 }, pushButtons: 1, xfa: false },
  { file: 'osha_form_301_injury_report.pdf', pages: 1, counts: { text: 26, radio: 5 }, pushButtons: 0, xfa: false },
  { file: 'cdc_icar_ltc_assessment.pdf', pages: 6, counts: { text: 88, checkbox: 54, radio: 20 }, pushButtons: 0, xfa: false },
  { file: 'interactive_form_example_indesign.pdf', pages: 1, counts: { text: 17, checkbox: 9, radio: 1, signature: 1 }, pushButtons: 1, xfa: false },
  { file: 'jlpt_application_2025_ja.pdf', pages: 6, counts: { checkbox: 45, select: 15, text: 11, radio: 1 }, pushButtons: 0, xfa: false },
  { file: 'openoffice_form_example.pdf', pages: 1, counts: { text: 4, checkbox: 4, select: 3, radio: 1 }, pushButtons: 0, xfa: false },
  { file: 'scribus_membership_application_de.pdf', pages: 1, counts: { text: 10, checkbox: 5 }, pushButtons: 0, xfa: false },
  { file: 'lima_oxygen_prescription_fr.pdf', pages: 2, counts: { text: 24, checkbox: 11, select: 2 }, pushButtons: 2, xfa: false },
  { file: 'uscis_i90_encrypted_xfa.pdf', pages: 7, counts: { text: 111, checkbox: 78, select: 6 }, pushButtons: 0, xfa: true },
];

function withTempDir<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'formsign-pdf-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** qpdf --check: exit 0 is clean, 3 is warnings only, 2 is errors. */
export function qpdfCheck(pdf: Uint8Array): { status: number | null; output: string } {
  return withTempDir((dir) => {
    const file = join(dir, 'check.pdf');
    writeFileSync(file, pdf);
    const run = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  });
}

export function pdfToText(pdf: Uint8Array, ...args: string[]): string {
  return withTempDir((dir) => {
    const file = join(dir, 'text.pdf');
    writeFileSync(file, pdf);
    const run = spawnSync('pdftotext', [...args, file, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`pdftotext failed: ${run.stderr}`);
    return run.stdout;
  });
}

/** Encrypts with qpdf (AES-256) using the given user password. */
export function qpdfEncrypt(pdf: Uint8Array, userPassword: string): Uint8Array {
  return withTempDir((dir) => {
    const input = join(dir, 'in.pdf');
    const output = join(dir, 'out.pdf');
    writeFileSync(input, pdf);
    const run = spawnSync('qpdf', ['--encrypt', userPassword, 'owner-secret', '256', '--', input, output], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`qpdf --encrypt failed: ${run.stderr}`);
    return new Uint8Array(readFileSync(output));
  });
}

export interface WordBox { page: number; word: string; xMin: number; yMin: number; xMax: number; yMax: number }

/** Word boxes from `pdftotext -bbox`: points, origin top-left of the page as displayed. */
export function wordBoxes(pdf: Uint8Array): WordBox[] {
  const html = pdfToText(pdf, '-bbox');
  const boxes: WordBox[] = [];
  html.split('<page ').slice(1).forEach((pageHtml, index) => {
    const re = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;
    for (const m of pageHtml.matchAll(re)) {
      boxes.push({
        page: index + 1, xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]),
        word: (m[5] ?? '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"'),
      });
    }
  });
  return boxes;
}

/**
 * How many dark pixels poppler paints in a region of a page (points from the top-left corner, at
 * 72 dpi): text that extracts fine can still draw nothing, e.g. a font subset without outlines.
 */
export function inkIn(pdf: Uint8Array, page: number, region: { x: number; y: number; width: number; height: number }): number {
  return withTempDir((dir) => {
    const file = join(dir, 'ink.pdf');
    writeFileSync(file, pdf);
    const args = ['-gray', '-r', '72', '-f', String(page), '-l', String(page), '-x', String(region.x), '-y', String(region.y), '-W', String(region.width), '-H', String(region.height), file];
    const run = spawnSync('pdftoppm', args, { maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`pdftoppm failed: ${run.stderr.toString()}`);
    // PGM: "P5\n<w> <h>\n255\n" then one byte per pixel.
    const image = run.stdout;
    let headerEnd = 0;
    for (let newlines = 0; newlines < 3; headerEnd++) if (image[headerEnd] === 0x0a) newlines++;
    let dark = 0;
    for (let i = headerEnd; i < image.length; i++) if (image[i]! < 128) dark++;
    return dark;
  });
}

/**
 * How many times one of our bundled fonts shows its blank glyph (.notdef, glyph 0) anywhere in the
 * document, page content or field appearances: they are embedded as CID fonts, shown in 2-byte codes,
 * and 0000 is what a font draws for a character it lacks.
 */
export async function blankGlyphsShown(pdf: Uint8Array): Promise<number> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  let blanks = 0;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    let content: string;
    try {
      content = Buffer.from(decodePDFRawStream(object).decode()).toString('latin1');
    } catch {
      continue; // images and the like
    }
    let cid = false;
    for (const m of content.matchAll(/\/([^\s/]+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>\s*Tj/g)) {
      if (m[1] !== undefined) cid = /^(DejaVu|Noto)/.test(m[1]);
      else if (cid) blanks += (m[2]!.match(/.{4}/g) ?? []).filter((code) => code === '0000').length;
    }
  }
  return blanks;
}
