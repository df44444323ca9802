// ZIP archives (issue 40: the evidence bundle and a person's data export), made and read with fflate
// in memory: both archives are a few documents of one form or one person. Every file is stored, not
// deflated: PDFs are compressed already, and a byte changed in the archive is then a byte changed in
// a file, which its SHA-256 in the manifest catches (fflate's reader does not check CRCs).
import { unzipSync, zipSync, type Zippable } from 'fflate';

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

/** The archive of `entries`, in order, each dated `mtime` (a fixed date makes the same bundle the same bytes). */
export function zipEntries(entries: readonly ZipEntry[], mtime: Date): Uint8Array {
  const files: Zippable = {};
  for (const e of entries) files[e.name] = [e.data, { level: 0, mtime }];
  return zipSync(files);
}

/** A file that is not a ZIP archive this reader can open (the message says why). */
export class ZipUnreadableError extends Error {
  override readonly name = 'ZipUnreadableError';
}

/**
 * The entries of a ZIP archive by name. Refuses an archive whose entries would expand past `maxBytes`
 * in total (a ZIP bomb) before expanding anything.
 */
export function unzipEntries(bytes: Uint8Array, maxBytes: number): Map<string, Uint8Array> {
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        total += f.originalSize;
        if (total > maxBytes) throw new ZipUnreadableError(`its files would expand past ${maxBytes} bytes`);
        return true;
      },
    });
  } catch (err) {
    if (err instanceof ZipUnreadableError) throw err;
    throw new ZipUnreadableError(`it is not a readable ZIP archive (${err instanceof Error ? err.message : String(err)})`);
  }
  return new Map(Object.entries(files));
}

/** Whether the bytes begin as a ZIP archive does (a local file header). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}
