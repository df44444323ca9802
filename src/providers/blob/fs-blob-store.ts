import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { assertValidBlobKey } from './blob-key.js';
import type { BlobStore } from './blob-store.js';

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

export function createFsBlobStore(rootDir: string): BlobStore {
  const pathOf = (key: string): string => {
    assertValidBlobKey(key);
    return join(rootDir, ...key.split('/'));
  };

  return {
    async put(key, data, _contentType) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
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
