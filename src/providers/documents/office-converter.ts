// Word and OpenDocument files to PDF with LibreOffice (issue 41): Debian's libreoffice-writer-nogui,
// run headless per job in a fresh profile directory, in its own process group, killed at its time
// bound, with its output size bounded, one conversion at a time per process and a bounded queue (a
// conversion is a process of its own, so it never blocks the event loop; the queue keeps a burst of
// Word uploads from starving the machine's cores that the PDF pool needs). Without network where the
// system allows it (`unshare --net`, as root), so a document's external links fetch nothing. The
// document is checked before LibreOffice sees it: a zip whose entries expand past a bound (a zip
// bomb), or with too many entries, is refused; macros never run (LibreOffice's headless conversion
// does not execute document macros, and the profile is new each time).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';

export type OfficeKind = 'docx' | 'odt';

export class DocumentUnconvertibleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocumentUnconvertibleError';
  }
}

export class ConverterBusyError extends Error {
  constructor() {
    super('Too many documents are being converted; try again in a minute.');
    this.name = 'ConverterBusyError';
  }
}

export interface OfficeConverter {
  /** What the bytes are: a Word (.docx) or OpenDocument text (.odt) file, or null for anything else. */
  kindOf(head: Uint8Array): OfficeKind | null;
  /** The document as PDF bytes; throws DocumentUnconvertibleError (a 422) or ConverterBusyError (a 503). */
  convert(bytes: Uint8Array, kind: OfficeKind): Promise<Uint8Array>;
}

export interface OfficeConverterOptions {
  /** The LibreOffice program (`soffice` on PATH by default). */
  command?: string;
  timeoutMs?: number;
  /** The most bytes a document's entries may expand to. */
  maxExpandedBytes?: number;
  maxEntries?: number;
  /** The largest PDF accepted back. */
  maxPdfBytes?: number;
  /** Conversions waiting at most; more answer ConverterBusyError. */
  maxQueued?: number;
}

const INSTALL = 'Word and OpenDocument files are converted with LibreOffice, which is not installed on this server. '
  + 'The operator can install it (Debian/Ubuntu: apt-get install libreoffice-writer-nogui); PDF uploads work without it.';
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const ODT_MIME = 'application/vnd.oasis.opendocument.text';

function entriesOf(bytes: Uint8Array, maxEntries: number, maxExpanded: number): Map<string, number> {
  const sizes = new Map<string, number>();
  let total = 0;
  try {
    // The filter sees each entry's sizes from the zip's directory and decompresses nothing.
    unzipSync(bytes, {
      filter(file) {
        sizes.set(file.name, file.originalSize);
        total += file.originalSize;
        if (sizes.size > maxEntries) throw new DocumentUnconvertibleError(`The document holds more than ${maxEntries} parts, far more than a text document does.`);
        if (total > maxExpanded) throw new DocumentUnconvertibleError('The document expands far beyond a normal text document (a compressed bomb), so Formsign will not convert it.');
        return false;
      },
    });
  } catch (err) {
    if (err instanceof DocumentUnconvertibleError) throw err;
    throw new DocumentUnconvertibleError('The document is damaged: its zip structure cannot be read. Save it again and upload the new copy.');
  }
  return sizes;
}

export function createOfficeConverter(opts: OfficeConverterOptions = {}): OfficeConverter {
  const command = opts.command ?? 'soffice';
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const maxExpanded = opts.maxExpandedBytes ?? 100 * 1024 * 1024;
  const maxEntries = opts.maxEntries ?? 5_000;
  const maxPdfBytes = opts.maxPdfBytes ?? 50 * 1024 * 1024;
  const maxQueued = opts.maxQueued ?? 8;
  let tail: Promise<unknown> = Promise.resolve();
  let queued = 0;
  // Probed at the first conversion, not here: every CLI command builds the converter, few convert.
  let canUnshare: boolean | undefined;
  const unshareWorks = (): boolean =>
    (canUnshare ??= process.getuid?.() === 0 && spawnSync('unshare', ['--net', 'true'], { stdio: 'ignore' }).status === 0);

  function kindOf(head: Uint8Array): OfficeKind | null {
    if (head.length < 4 || !ZIP.every((b, i) => head[i] === b)) return null;
    // An OpenDocument file starts with its uncompressed `mimetype` entry (at offset 30).
    const text = Buffer.from(head.buffer, head.byteOffset, Math.min(head.length, 200)).toString('latin1');
    if (text.includes('mimetype') && text.includes(ODT_MIME)) return 'odt';
    return 'docx'; // Confirmed (or refused) from the zip's directory in convert().
  }

  async function run(bytes: Uint8Array, kind: OfficeKind): Promise<Uint8Array> {
    const entries = entriesOf(bytes, maxEntries, maxExpanded);
    if (kind === 'docx' && !entries.has('word/document.xml')) {
      throw new DocumentUnconvertibleError('This file is a zip archive but not a Word document (.docx) or an OpenDocument text (.odt). Upload a PDF, a .docx or an .odt.');
    }
    if (kind === 'odt' && !entries.has('content.xml')) throw new DocumentUnconvertibleError('The OpenDocument file has no content. Save it again and upload the new copy.');
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'formsign-office-'));
    try {
      const input = path.join(dir, `document.${kind}`);
      await fs.writeFile(input, bytes);
      const args = ['--headless', '--norestore', '--nologo', '--nolockcheck', `-env:UserInstallation=file://${path.join(dir, 'profile')}`, '--convert-to', 'pdf', '--outdir', path.join(dir, 'out'), input];
      const [program, argv] = unshareWorks() ? ['unshare', ['--net', command, ...args]] : [command, args];
      const result = await new Promise<{ code: number | null; timedOut: boolean; stderr: string; missing?: boolean }>((resolve) => {
        const child = spawn(program, argv, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => { if (stderr.length < 4000) stderr += d.toString(); });
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
        }, timeoutMs);
        child.on('error', (err: NodeJS.ErrnoException) => { clearTimeout(timer); resolve({ code: -1, timedOut, stderr, missing: err.code === 'ENOENT' }); });
        child.on('close', (code) => { clearTimeout(timer); resolve({ code, timedOut, stderr }); });
      });
      // Not installed: spawn finds no program, or `unshare` cannot execute it (exit 127).
      if (result.missing || result.code === 127) throw new DocumentUnconvertibleError(INSTALL);
      if (result.timedOut) throw new DocumentUnconvertibleError(`The document took longer than ${Math.round(timeoutMs / 1000)} s to convert, so Formsign stopped. Split it or export it as PDF yourself.`);
      const out = path.join(dir, 'out', 'document.pdf');
      const stat = await fs.stat(out).catch(() => undefined);
      if (result.code !== 0 || !stat) throw new DocumentUnconvertibleError('LibreOffice could not convert the document (it may be damaged or protected with a password). Open it, save it again, or export it as PDF yourself.');
      if (stat.size > maxPdfBytes) throw new DocumentUnconvertibleError('The converted document is larger than Formsign accepts. Split it into smaller documents.');
      return new Uint8Array(await fs.readFile(out));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  return {
    kindOf,
    convert(bytes, kind) {
      if (queued >= maxQueued) return Promise.reject(new ConverterBusyError());
      queued += 1;
      const job = tail.then(() => run(bytes, kind));
      tail = job.catch(() => undefined).finally(() => { queued -= 1; });
      return job;
    },
  };
}
