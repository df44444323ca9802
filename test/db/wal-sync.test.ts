// wal-sync.ts: the rules that let SQLite commit with synchronous = NORMAL and still settle a write's
// promise only once it is on disk. The flush is injected, so each test decides when it completes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../../src/db/database.js';
import { createWalSync, threadFdatasync, WalFlushFailedError, type Fdatasync } from '../../src/db/wal-sync.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-walsync-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A flush that completes only when the test says so, recording each call. */
function controlledFlush(): { fdatasync: Fdatasync; calls: number; finish(err?: Error): void } {
  const pending: Array<(err: NodeJS.ErrnoException | null) => void> = [];
  const ctl = {
    calls: 0,
    fdatasync: ((_fd, cb) => { ctl.calls++; pending.push(cb); }) as Fdatasync,
    finish(err?: Error) {
      const cb = pending.shift();
      assert.ok(cb, 'a flush is running');
      cb(err ?? null);
    },
  };
  return ctl;
}

const settled = async (p: Promise<unknown>): Promise<string> => {
  let state = 'pending';
  p.then(() => (state = 'resolved'), () => (state = 'rejected'));
  await new Promise((resolve) => setImmediate(resolve));
  return state;
};

describe('WAL flush', () => {
  const wal = path.join(dir, 'x.sqlite-wal');
  fs.writeFileSync(wal, 'frames');

  it('releases a waiter only with a flush that started after it asked', async () => {
    const flush = controlledFlush();
    const sync = createWalSync(wal, flush.fdatasync);
    const first = sync.durable();
    assert.equal(flush.calls, 1);
    // Asked while the first flush runs: its frames may have been written after that flush began.
    const second = sync.durable();
    assert.equal(flush.calls, 1, 'one flush in flight at a time');
    flush.finish();
    assert.equal(await settled(first), 'resolved');
    assert.equal(await settled(second), 'pending', 'the running flush does not count for a later commit');
    assert.equal(flush.calls, 2, 'the next flush starts as soon as the first ends');
    flush.finish();
    assert.equal(await settled(second), 'resolved');
  });

  it('lets every waiter that asked during one flush share the next', async () => {
    const flush = controlledFlush();
    const sync = createWalSync(wal, flush.fdatasync);
    const first = sync.durable();
    const during = Array.from({ length: 50 }, () => sync.durable());
    flush.finish();
    await settled(first);
    assert.equal(flush.calls, 2, '50 commits, one more flush');
    flush.finish();
    for (const p of during) assert.equal(await settled(p), 'resolved');
    assert.equal(flush.calls, 2);
  });

  it('after a failed flush refuses every later write too: the lost pages may be marked clean', async () => {
    const flush = controlledFlush();
    const sync = createWalSync(wal, flush.fdatasync);
    const failed = sync.durable();
    const waiting = sync.durable();
    failed.catch(() => undefined);
    waiting.catch(() => undefined);
    flush.finish(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await assert.rejects(failed, (err: unknown) => err instanceof WalFlushFailedError && /EIO/.test(err.message) && /restart Formsign/.test(err.message));
    await assert.rejects(waiting, WalFlushFailedError, 'a commit made while the failing flush ran');
    await assert.rejects(sync.durable(), WalFlushFailedError, 'a commit made afterwards');
    assert.equal(flush.calls, 1, 'no flush is attempted after the failure: it could falsely succeed');
  });

  it('flushes on a thread of its own, and reports its errors', async () => {
    const thread = threadFdatasync();
    try {
      const sync = createWalSync(wal, thread);
      await sync.durable();
      await sync.close();
      // A descriptor that is not open: the thread answers with the error instead of hanging.
      await assert.rejects(new Promise<void>((resolve, reject) => thread(987_654, (err) => (err ? reject(err) : resolve()))), /EBADF|bad file/i);
    } finally {
      await thread.stop();
    }
  });

  it('rejects when the WAL cannot be opened, instead of claiming durability', async () => {
    const sync = createWalSync(path.join(dir, 'missing', 'x.sqlite-wal'));
    await assert.rejects(sync.durable(), (err: unknown) => err instanceof WalFlushFailedError && /ENOENT/.test(err.message));
  });
});

describe('group commit and the WAL flush', () => {
  it('runs NORMAL and settles a write only after the WAL flush that follows its commit', async () => {
    const dataDir = fs.mkdtempSync(path.join(dir, 'db-'));
    const flushes: number[] = [];
    const thread = threadFdatasync();
    // Watch the flush: it must run between the commit and the promise settling.
    const walFlush: Fdatasync = (fd, cb) => { flushes.push(fd); thread(fd, cb); };
    const store = openDatabase({ databaseUrl: undefined, dataDir, walFlush });
    try {
      await migrateToLatest(store);
      const mode = await sql<{ synchronous: number }>`pragma synchronous`.execute(store.db);
      assert.equal(mode.rows[0]?.synchronous, 1, 'synchronous = NORMAL');
      const before = flushes.length;
      await store.transact(async (trx) => {
        await trx.insertInto('service_secrets').values({ name: 'wal-sync-test', value: 'x', created_at: new Date().toISOString() }).execute();
      });
      assert.ok(flushes.length > before, 'the WAL was flushed before the write was acknowledged');
    } finally {
      await store.close();
      await thread.stop();
    }
  });

  it('settles replayable units at the commit and durable ones only after the flush, in one batch', async () => {
    const dataDir = fs.mkdtempSync(path.join(dir, 'db-'));
    const thread = threadFdatasync();
    const held: Array<() => void> = [];
    let hold = false;
    const walFlush: Fdatasync = (fd, cb) => (hold ? held.push(() => thread(fd, cb)) : thread(fd, cb));
    const store = openDatabase({ databaseUrl: undefined, dataDir, walFlush });
    const insert = (name: string) => async (trx: Parameters<Parameters<typeof store.transact>[0]>[0]) => {
      await trx.insertInto('service_secrets').values({ name, value: 'x', created_at: new Date().toISOString() }).execute();
      return name;
    };
    try {
      await migrateToLatest(store);
      hold = true;
      const durable = store.transact(insert('durable'));
      const replayable = store.transactReplayable(insert('replayable'));
      assert.equal(await replayable, 'replayable', 'settled without waiting for the disk');
      assert.equal(await settled(durable), 'pending', 'committed in the same batch, but not yet flushed');
      const rows = await store.db.selectFrom('service_secrets').select('name').where('name', 'in', ['durable', 'replayable']).execute();
      assert.equal(rows.length, 2, 'both committed together');
      hold = false;
      for (const release of held.splice(0)) release();
      assert.equal(await durable, 'durable');
    } finally {
      await store.close();
      await thread.stop();
    }
  });

  it('refuses the write whose flush failed, and every write after it, instead of acknowledging them', async () => {
    const dataDir = fs.mkdtempSync(path.join(dir, 'db-'));
    const thread = threadFdatasync();
    let broken = false;
    const walFlush: Fdatasync = (fd, cb) => (broken ? cb(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })) : thread(fd, cb));
    const store = openDatabase({ databaseUrl: undefined, dataDir, walFlush });
    const write = (name: string) => store.transact(async (trx) => {
      await trx.insertInto('service_secrets').values({ name, value: 'x', created_at: new Date().toISOString() }).execute();
    });
    try {
      await migrateToLatest(store);
      await write('before');
      broken = true;
      await assert.rejects(write('during'), WalFlushFailedError);
      broken = false;
      await assert.rejects(write('after'), WalFlushFailedError, 'the disk is not trusted again without a restart');
    } finally {
      await store.close();
      await thread.stop();
    }
  });
});
