// Poppler's verdicts on a PDF we produced: `pdfsig`'s report (and, after a separator, the text
// `pdftotext -layout` reads), run on a temporary copy.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function withCopy<T>(pdf: Uint8Array, run: (file: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-pdf-'));
  try {
    const file = path.join(dir, 'signed.pdf');
    fs.writeFileSync(file, pdf);
    return run(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What pdfsig says of the document's signatures (stdout and stderr). */
export function pdfsig(pdf: Uint8Array): string {
  return withCopy(pdf, (file) => {
    const run = spawnSync('pdfsig', [file], { encoding: 'utf8' });
    return `${run.stdout}${run.stderr}`;
  });
}

/** pdfsig's report, then `---`, then the document's text as pdftotext lays it out. */
export function pdfsigAndText(pdf: Uint8Array): string {
  return withCopy(pdf, (file) => {
    const sig = spawnSync('pdfsig', [file], { encoding: 'utf8' });
    const text = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    return `${sig.stdout}${sig.stderr}\n---\n${text.stdout}`;
  });
}
