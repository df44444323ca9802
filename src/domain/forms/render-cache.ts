// Filled PDFs, kept in the blob store under `renders/<account>/<mode>/<hash>.pdf`, where the hash
// covers everything that decides the bytes (renderer version, source file, fields, values): thirty
// forms with the same template and values share one stored copy. The cache is bounded by total size
// and by age: a rendering older than `maxAgeMs` is drawn again, and past `maxBytes` the least
// recently used ones are deleted. The index of what is stored lives in memory, read from the store's
// listing on first use; an instance that finds a rendering another one stored adds it on read.
import type { BlobStore } from '../../providers/blob/index.js';
import type { RenderCache } from '../context.js';

export interface RenderCacheOptions {
  maxBytes: number;
  maxAgeMs: number;
  now?: () => number;
}

const PREFIX = 'renders/';

interface Entry { size: number; storedAt: number; usedAt: number }

export function createRenderCache(blobs: BlobStore, options: RenderCacheOptions): RenderCache {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let total = 0;
  let loaded: Promise<void> | undefined;
  // One sweep at a time; a put during a sweep is counted and looked at by the next one.
  let sweeping: Promise<void> = Promise.resolve();

  const track = (key: string, entry: Entry): void => {
    const old = entries.get(key);
    if (old) total -= old.size;
    // Delete first so the map stays in storing order: its first entry is the oldest.
    entries.delete(key);
    entries.set(key, entry);
    total += entry.size;
  };

  const forget = (key: string): void => {
    const old = entries.get(key);
    if (!old) return;
    entries.delete(key);
    total -= old.size;
  };

  function load(): Promise<void> {
    loaded ??= blobs.list(PREFIX).then(
      (found) => {
        for (const b of found.sort((x, y) => x.modifiedAt - y.modifiedAt)) track(b.key, { size: b.size, storedAt: b.modifiedAt, usedAt: b.modifiedAt });
      },
      (err: unknown) => {
        loaded = undefined;
        throw err;
      },
    );
    return loaded;
  }

  async function sweep(): Promise<void> {
    const cutoff = now() - options.maxAgeMs;
    const doomed = new Set<string>();
    let remaining = total;
    for (const [key, e] of entries) {
      if (e.storedAt >= cutoff) break;
      doomed.add(key);
      remaining -= e.size;
    }
    if (remaining > options.maxBytes) {
      const byUse = [...entries].filter(([key]) => !doomed.has(key)).sort((a, b) => a[1].usedAt - b[1].usedAt);
      for (const [key, e] of byUse) {
        if (remaining <= options.maxBytes) break;
        doomed.add(key);
        remaining -= e.size;
      }
    }
    for (const key of doomed) {
      forget(key);
      await blobs.delete(key);
    }
  }

  return {
    maxBytes: options.maxBytes,
    maxAgeMs: options.maxAgeMs,
    keyFor: (p, hash) => `${PREFIX}${p.accountId}/${p.mode}/${hash}.pdf`,
    async get(key) {
      await load();
      const entry = entries.get(key);
      if (entry && entry.storedAt < now() - options.maxAgeMs) return null;
      const pdf = await blobs.get(key);
      if (!pdf) {
        forget(key);
        return null;
      }
      if (entry) entry.usedAt = now();
      else track(key, { size: pdf.byteLength, storedAt: now(), usedAt: now() });
      return pdf;
    },
    async put(key, pdf) {
      await load();
      await blobs.put(key, pdf, 'application/pdf');
      track(key, { size: pdf.byteLength, storedAt: now(), usedAt: now() });
      const oldest = entries.values().next().value;
      if (total > options.maxBytes || (oldest && oldest.storedAt < now() - options.maxAgeMs)) {
        sweeping = sweeping.then(sweep, sweep);
        await sweeping;
      }
    },
    async bytes() {
      await load();
      return total;
    },
  };
}
