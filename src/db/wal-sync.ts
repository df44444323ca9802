// Durability for SQLite commits without blocking the event loop. With `synchronous = FULL`, SQLite
// fsyncs the WAL inside COMMIT, on the event loop: ~2 ms per batch here during which nothing else
// runs, which halved form creation's throughput (docs/benchmarks.md). Instead the database runs with
// `synchronous = NORMAL` (a commit writes the WAL but does not flush it) and the group commit asks this
// module to flush the WAL on a thread of its own, settling the batch's promises only once its frames
// are on disk. A 2xx still means the write survives power loss.
//
// The rules that keep this correct (test/db/wal-sync.test.ts):
// - A waiter is released only by a flush that *started after* it asked: a flush already running may
//   have begun before its commit's frames were written.
// - Waiters that ask while a flush runs share the next one (one flush in flight at a time, however
//   many batches commit meanwhile).
// - A failed flush is final: after a write error Linux may mark the lost pages clean, so a later flush
//   would "succeed" over a WAL whose checksum chain is broken, and every later commit would be lost on
//   recovery. Every waiter from then on is refused, and the server must be restarted (PostgreSQL
//   panics for the same reason).
// - fdatasync flushes the file (its inode), whichever descriptor it is called on; SQLite keeps the
//   WAL's inode while any connection is open (a checkpoint restarts or truncates it in place), and
//   under NORMAL SQLite itself syncs the WAL before every checkpoint and the database after it.
// - The flush runs on its own thread, not libuv's shared pool, where DNS lookups of webhook hosts or
//   password hashing could hold every slot and delay every acknowledgement.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export type Fdatasync = (fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => void;

export interface WalSync {
  /** Resolves once everything written to the WAL before this call is on disk. */
  durable(): Promise<void>;
  /** Flushes once more and closes the descriptor (at shutdown, after the last commit). */
  close(): Promise<void>;
}

/** A flush of the WAL failed: what was committed since the last good flush may be lost. */
export class WalFlushFailedError extends Error {
  constructor(override readonly cause: unknown) {
    super(`Writing the database's log to disk failed (${cause instanceof Error ? cause.message : String(cause)}); no further write is acknowledged. Check the disk, then restart Formsign.`);
    this.name = 'WalFlushFailedError';
  }
}

interface Waiter { resolve(): void; reject(err: unknown): void }

// The flush thread: one message per flush, answered when fdatasync returns. A file descriptor is the
// process's, so the thread can flush the one the main thread opened.
const FLUSH_THREAD = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
parentPort.on('message', ({ id, fd }) => {
  try {
    fs.fdatasyncSync(fd);
    parentPort.postMessage({ id });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: String(err && err.message || err), code: err && err.code } });
  }
});`;

/** fdatasync on a dedicated thread; the thread does not keep the process alive. */
export function threadFdatasync(): Fdatasync & { stop(): Promise<void> } {
  let worker: Worker | undefined;
  let next = 0;
  const pending = new Map<number, (err: NodeJS.ErrnoException | null) => void>();
  const failAll = (err: Error): void => {
    for (const cb of pending.values()) cb(err);
    pending.clear();
    worker = undefined;
  };
  const start = (): Worker => {
    const w = new Worker(FLUSH_THREAD, { eval: true });
    w.unref();
    w.on('message', (m: { id: number; error?: { message: string; code?: string } }) => {
      const cb = pending.get(m.id);
      pending.delete(m.id);
      cb?.(m.error ? Object.assign(new Error(m.error.message), { code: m.error.code }) : null);
    });
    w.on('error', (err) => failAll(err));
    w.on('exit', (code) => failAll(new Error(`the WAL flush thread exited (${code})`)));
    return w;
  };
  const flush = ((fd, cb) => {
    worker ??= start();
    const id = next++;
    pending.set(id, cb);
    worker.postMessage({ id, fd });
  }) as Fdatasync & { stop(): Promise<void> };
  flush.stop = async () => {
    const w = worker;
    worker = undefined;
    if (w) {
      w.removeAllListeners('exit');
      await w.terminate();
    }
  };
  return flush;
}

export function createWalSync(walPath: string, fdatasync: Fdatasync = fs.fdatasync): WalSync {
  let fd: number | undefined;
  let running = false;
  let failed: WalFlushFailedError | undefined;
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

  const refuseAll = (): void => {
    const waiters = next;
    next = [];
    for (const w of waiters) w.reject(failed);
  };

  const flush = (): void => {
    if (failed) return refuseAll();
    if (running || next.length === 0) return;
    const waiters = next;
    next = [];
    let descriptor: number;
    try {
      descriptor = open();
    } catch (err) {
      failed = new WalFlushFailedError(err);
      for (const w of waiters) w.reject(failed);
      return refuseAll();
    }
    running = true;
    fdatasync(descriptor, (err) => {
      running = false;
      if (err) failed = new WalFlushFailedError(err);
      for (const w of waiters) {
        if (failed) w.reject(failed);
        else w.resolve();
      }
      // Whoever asked while this flush ran shares the next one (or, after a failure, is refused).
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
      try {
        if (!failed && fs.existsSync(walPath)) await new Promise<void>((resolve, reject) => { next.push({ resolve, reject }); flush(); });
      } catch {
        // The writers were refused already; shutting down goes on.
      } finally {
        fs.closeSync(fd);
        fd = undefined;
      }
    },
  };
}
