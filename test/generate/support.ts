// Helpers for the generate tests: qpdf's verdict and the AcroForm field names of a PDF.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';

export function qpdfCheck(pdf: Uint8Array): { ok: boolean; output: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-gen-'));
  try {
    const file = path.join(dir, 'form.pdf');
    fs.writeFileSync(file, pdf);
    const run = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function acroFieldNames(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  return doc.getForm().getFields().map((f) => f.getName());
}

export function pdfText(pdf: Uint8Array): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-gen-'));
  try {
    const file = path.join(dir, 'form.pdf');
    fs.writeFileSync(file, pdf);
    return spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).stdout;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
