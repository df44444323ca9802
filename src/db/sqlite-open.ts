import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * Opens the SQLite file in write-ahead-log mode. WAL mode needs a shared-memory index beside the file
 * (`-shm`, 32 KiB); on a full disk it cannot be made and the start used to end in `pragma
 * journal_mode=WAL` with "disk I/O error" (issue 35 item 6). Then, and only when the disk really is
 * full, the file is opened in exclusive locking mode, where SQLite keeps that index in memory: reads
 * work, a write fails with SQLITE_FULL (answered 503 storage_unavailable with Retry-After) until space
 * is freed, and this process keeps the file to itself until it restarts (another process, such as an
 * operator command, waits for it and is told the database is busy).
 */
export function openWalFile(filePath: string): { file: SQLite.Database; exclusive: boolean } {
  const file = new SQLite(filePath);
  try {
    return { file, exclusive: walMode(file, filePath) };
  } catch (err) {
    file.close();
    if (!diskFull(err, path.dirname(filePath))) throw err;
  }
  const exclusive = new SQLite(filePath);
  try {
    exclusive.pragma('locking_mode = EXCLUSIVE');
    walMode(exclusive, filePath);
    return { file: exclusive, exclusive: true };
  } catch (err) {
    exclusive.close();
    throw err;
  }
}

function walMode(file: SQLite.Database, filePath: string): false {
  const mode = file.pragma('journal_mode = WAL', { simple: true });
  // Durability rests on flushing the WAL (wal-sync.ts): a file system where SQLite cannot keep one
  // (some network mounts) must not run on the assumption that it does.
  if (mode !== 'wal') throw new Error(`SQLite could not use write-ahead logging for ${filePath} (journal mode is "${String(mode)}"); put DATA_DIR on a local disk.`);
  return false;
}

/** SQLite's failure to size its index (or write) on a disk with less than 1 MiB left. */
function diskFull(err: unknown, dir: string): boolean {
  const code = String((err as { code?: unknown }).code ?? '');
  if (!/^SQLITE_(FULL|IOERR)/.test(code)) return false;
  try {
    const s = fs.statfsSync(dir);
    return s.bavail * s.bsize < 1024 * 1024;
  } catch {
    return false;
  }
}
