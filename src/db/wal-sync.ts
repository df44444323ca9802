// Durability for SQLite commits without blocking the event loop. With `synchronous = FULL`, SQLite
// fsyncs the WAL inside COMMIT, on the event loop: ~2 ms per batch here during which nothing else
// runs, which halved form creation's throughput (docs/benchmarks.md). Instead the database runs with
// `synchronous = NORMAL` (a commit writes the WAL but does not flush it) and the group commit asks this
// module to flush the WAL on libuv's thread pool, settling the batch's promises only once its frames
// are on disk. A 2xx still means the write survives power loss.
//
// The rules that keep this correct (test/db/wal-sync.test.ts):
// - A waiter is released only by a flush that *started after* it asked: a flush already running may
//   have begun before its commit's frames were written.
// - Waiters that ask while a flush runs share the next one (one fsync in flight at a time, however
//   many batches commit meanwhile).
// - A failed flush rejects exactly the waiters it was for; durability of those commits is unknown.
// - fdatasync flushes the file (its inode), whichever descriptor it is called on; SQLite keeps the
//   WAL's inode while any connection is open (a checkpoint restarts or truncates it in place), and
//   under NORMAL SQLite itself syncs the WAL before every checkpoint and the database after it.
import fs from 'node:fs';
import path from 'node:path';

export type Fdatasync = (fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => void;

export interface WalSync {
  /** Resolves once everything written to the WAL before this call is on disk. */
  durable(): Promise<void>;
  /** Flushes once more and closes the descriptor (at shutdown, after the last commit). */
  close(): Promise<void>;
}

interface Waiter { resolve(): void; reject(err: unknown): void }

export function createWalSync(walPath: string, fdatasync: Fdatasync = fs.fdatasync): WalSync {
  let fd: number | undefined;
  let running = false;
  let next: Waiter[] = [];

  const open = (): number => {
    if (fd === undefined) {
      fd = fs.openSync(walPath, 'r');
      // The WAL's directory entry must be on disk too, or a power loss can drop the whole file.
      const dir = fs.openSync(path.dirname(walPath), 'r');
      try {
        fs.fsyncSync(dir);
      } finally {
        fs.closeSync(dir);
      }
    }
    return fd;
  };

  const flush = (): void => {
    if (running || next.length === 0) return;
    const waiters = next;
    next = [];
    let descriptor: number;
    try {
      descriptor = open();
    } catch (err) {
      for (const w of waiters) w.reject(err);
      return;
    }
    running = true;
    fdatasync(descriptor, (err) => {
      running = false;
      for (const w of waiters) {
        if (err) w.reject(err);
        else w.resolve();
      }
      // Whoever asked while this flush ran shares the next one.
      flush();
    });
  };

  return {
    durable: () => new Promise<void>((resolve, reject) => {
      next.push({ resolve, reject });
      flush();
    }),
    async close() {
      if (fd === undefined) return;
      // Wait for the flush in flight (if any) by joining the next one.
      if (fs.existsSync(walPath)) await new Promise<void>((resolve, reject) => { next.push({ resolve, reject }); flush(); });
      fs.closeSync(fd);
      fd = undefined;
    },
  };
}
