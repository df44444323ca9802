import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { assertValidBlobKey } from './blob-key.js';
import type { BlobInfo, BlobStore } from './blob-store.js';

// These codes mean "nothing stored under this key": a missing file, a key whose parent is a file,
// or a key that is only a prefix (a directory) of other keys — S3 has no such object either.
const ABSENT_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

function isAbsent(err: unknown): boolean {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' && ABSENT_CODES.has(err.code);
}

// '~' is outside the key alphabet, so a temp file can never collide with (or be read as) a real key.
function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.~${randomBytes(6).toString('hex')}.tmp`);
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function createFsBlobStore(rootDir: string): BlobStore {
  const pathOf = (key: string): string => {
    assertValidBlobKey(key);
    return join(rootDir, ...key.split('/'));
  };

  return {
    async put(key, data, _contentType) {
      const path = pathOf(key);
      const created = await mkdir(dirname(path), { recursive: true });
      // Readers must only ever see the old or the new complete file, and a crash must not leave a
      // truncated one: write and fsync a sibling temp file, then rename it over the target.
      const tmp = tempPathFor(path);
      try {
        const handle = await open(tmp, 'wx');
        try {
          await handle.writeFile(data);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(tmp, path);
      } catch (err) {
        await unlink(tmp).catch(() => undefined);
        throw err;
      }
      // The rename lives in the directory: until the directory is synced, a power loss can bring
      // back the old entry (or none) although put() resolved and the caller answered 2xx.
      await syncDirectory(dirname(path));
      // Directories made for this key are entries in their parents, which need the same.
      if (created !== undefined) {
        for (let dir = dirname(path); dir !== dirname(created); ) {
          dir = dirname(dir);
          await syncDirectory(dir);
        }
      }
    },

    async get(key) {
      const path = pathOf(key);
      try {
        return await readFile(path);
      } catch (err) {
        if (isAbsent(err)) return null;
        throw err;
      }
    },

    async exists(key) {
      const path = pathOf(key);
      try {
        return (await stat(path)).isFile();
      } catch (err) {
        if (isAbsent(err)) return false;
        throw err;
      }
    },

    async delete(key) {
      const path = pathOf(key);
      try {
        await unlink(path);
      } catch (err) {
        if (!isAbsent(err)) throw err;
      }
    },

    async list(prefix) {
      const base = prefix.replace(/\/+$/, '');
      const found: BlobInfo[] = [];
      const walk = async (dir: string, keyPrefix: string): Promise<void> => {
        let entries;
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch (err) {
          if (isAbsent(err)) return;
          throw err;
        }
        for (const entry of entries) {
          // Temp files of unfinished puts start with '.', which no key segment list can reach here.
          if (entry.name.startsWith('.')) continue;
          const key = keyPrefix === '' ? entry.name : `${keyPrefix}/${entry.name}`;
          const path = join(dir, entry.name);
          if (entry.isDirectory()) await walk(path, key);
          else if (entry.isFile()) {
            const info = await stat(path).catch(() => undefined);
            if (info) found.push({ key, size: info.size, modifiedAt: info.mtimeMs });
          }
        }
      };
      await walk(base === '' ? rootDir : pathOf(base), base);
      return found;
    },

    async ping() {
      try {
        // A fresh install has no root until the first put; creating it here keeps /readyz honest
        // about whether we could write, rather than failing on an empty deployment.
        await mkdir(rootDir, { recursive: true });
        await access(rootDir, constants.R_OK | constants.W_OK);
        return true;
      } catch {
        return false;
      }
    },
  };
}
