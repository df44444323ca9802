import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * A full disk (SQLite "database or disk is full", ENOSPC from the file store, PostgreSQL disk_full):
 * nothing is lost — the write is rolled back — and writes work again once space is freed, but the
 * client must be told to come back later and the operator must see it. Once a write has failed for
 * lack of space the store counts as full, and each readiness check asks again by writing a small file
 * beside the data (and syncing it): it succeeds once space returns, which ends the condition.
 */
export interface StorageHealth {
  /** A write failed for lack of space (counted by the caller). */
  noteFull(): void;
  /** Whether storage is full now: false unless a write failed, then a fresh probe decides. */
  isFull(): Promise<boolean>;
}

const PROBE_BYTES = 64 * 1024;

/** The code of providers/blob's BlobStoreUnavailableError: the file store (S3) could not be reached. */
export const FILE_STORE_UNAVAILABLE = 'FORMSIGN_BLOB_UNAVAILABLE';

export function isFileStoreUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === FILE_STORE_UNAVAILABLE) return true;
  }
  return false;
}

export function isStorageFull(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || code === '53100') return true;
  }
  return false;
}

export function createStorageHealth(dir: string): StorageHealth {
  let full = false;
  let probing: Promise<boolean> | undefined;
  async function probe(): Promise<boolean> {
    const file = path.join(dir, `.space-probe-${randomBytes(6).toString('hex')}`);
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(file, 'w');
      await handle.write(Buffer.alloc(PROBE_BYTES));
      await handle.sync();
      full = false;
    } catch (err) {
      if (!isStorageFull(err)) throw err;
    } finally {
      await handle?.close().catch(() => undefined);
      await fs.rm(file, { force: true });
    }
    return full;
  }
  return {
    noteFull() {
      full = true;
    },
    async isFull() {
      if (!full) return false;
      return (probing ??= probe().finally(() => (probing = undefined)));
    },
  };
}
