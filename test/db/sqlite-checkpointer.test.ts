import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { migrateToLatest, openDatabase } from '../../src/db/database.js';
import { startCheckpointer } from '../../src/db/sqlite-checkpointer.js';
import type { AccountsTable } from '../../src/db/tables.js';

// The checkpointer copies WAL pages into the main database file from a worker thread. What is in the
// main file alone is observed by copying just that file (no -wal) and opening the copy: it holds exactly
// what has been checkpointed.

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NOW = '2026-01-01T00:00:00.000Z';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds or the deadline passes; returns whether it held. The deadlines guard
 * against "never" and leave room for a loaded 2-core machine. */
async function eventually(check: () => boolean, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() > end) return false;
    await sleep(20);
  }
}

/** Rows of `table` in the main database file only (the WAL left out); null if the copy is unreadable. */
function rowsInMainFile(dir: string, file: string, table: string): number | null {
  const copy = path.join(dir, `main-only-${Math.random().toString(36).slice(2)}.sqlite`);
  fs.copyFileSync(file, copy);
  try {
    const db = new SQLite(copy);
    try {
      const exists = db.prepare(`select count(*) from sqlite_master where type = 'table' and name = ?`).pluck().get(table) as number;
      return exists ? (db.prepare(`select count(*) from ${table}`).pluck().get() as number) : 0;
    } finally {
      db.close();
    }
  } catch {
    return null; // copied in the middle of a checkpoint: try again
  } finally {
    for (const f of [copy, `${copy}-wal`, `${copy}-shm`]) fs.rmSync(f, { force: true });
  }
}

/** A WAL database that only an explicit checkpoint writes back (automatic checkpoints off). */
function walFileWithoutAutocheckpoint(dir: string, name: string, rows: number): { file: string; db: SQLite.Database } {
  const file = path.join(dir, name);
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('create table t (id integer primary key, v text not null)');
  const insert = db.prepare('insert into t (v) values (?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`row ${i} ${'x'.repeat(200)}`);
  })();
  return { file, db };
}

describe('sqlite checkpointer (startCheckpointer)', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-checkpointer-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('copies the WAL into the main file on its interval, while the writer keeps its connection open', { timeout: 60_000 }, async () => {
    const { file, db } = walFileWithoutAutocheckpoint(dir, 'interval.sqlite', 2000);
    try {
      const sizeBefore = fs.statSync(file).size;
      assert.ok(fs.statSync(`${file}-wal`).size > 100_000, 'the rows are in the WAL');
      assert.equal(rowsInMainFile(dir, file, 't'), 0, 'nothing has been checkpointed yet');

      const errors: string[] = [];
      const checkpointer = startCheckpointer(file, { intervalMs: 50, onError: (m) => errors.push(m) });
      try {
        assert.ok(await eventually(() => rowsInMainFile(dir, file, 't') === 2000, 15_000), 'the worker checkpointed the WAL into the main file');
        assert.ok(fs.statSync(file).size > sizeBefore + 100_000, `main file grew from ${sizeBefore} to ${fs.statSync(file).size}`);

        // Writes made later are picked up by a later interval.
        db.prepare('insert into t (v) values (?)').run('late');
        assert.ok(await eventually(() => rowsInMainFile(dir, file, 't') === 2001, 15_000), 'a later write was checkpointed too');
      } finally {
        await checkpointer.stop();
      }
      assert.deepEqual(errors, []);
      assert.equal(db.prepare('select count(*) from t').pluck().get(), 2001, 'the writer still reads everything');
    } finally {
      db.close();
    }
  });

  it('a worker that dies is started again and keeps copying the WAL', { timeout: 60_000 }, async () => {
    const { file, db } = walFileWithoutAutocheckpoint(dir, 'restart.sqlite', 10);
    const errors: string[] = [];
    const checkpointer = startCheckpointer(file, { intervalMs: 50, restartDelayMs: 50, onError: (m) => errors.push(m) });
    try {
      assert.ok(await eventually(() => rowsInMainFile(dir, file, 't') === 10, 15_000));
      const first = checkpointer.restarts();
      await checkpointer.kill();
      assert.ok(await eventually(() => checkpointer.restarts() !== first, 15_000), 'a new worker thread started');
      assert.ok(errors.some((e) => /checkpoint worker exited/.test(e)), errors.join('\n'));
      db.prepare('insert into t (v) values (?)').run('after the crash');
      assert.ok(await eventually(() => rowsInMainFile(dir, file, 't') === 11, 15_000), 'the new worker checkpoints');
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it('stop() runs a last checkpoint, so nothing waits for the interval', { timeout: 60_000 }, async () => {
    const { file, db } = walFileWithoutAutocheckpoint(dir, 'final.sqlite', 500);
    try {
      // An interval that never comes within this test: only stop() can checkpoint.
      const checkpointer = startCheckpointer(file, { intervalMs: 600_000 });
      await checkpointer.stop();
      assert.equal(rowsInMainFile(dir, file, 't'), 500);
    } finally {
      db.close();
    }
  });

  it('stop() resolves and is idempotent (twice in a row, and twice at once)', { timeout: 60_000 }, async () => {
    const { file, db } = walFileWithoutAutocheckpoint(dir, 'stop.sqlite', 10);
    try {
      const errors: string[] = [];
      const a = startCheckpointer(file, { intervalMs: 20, onError: (m) => errors.push(m) });
      await a.stop();
      await a.stop();
      const b = startCheckpointer(file, { intervalMs: 20, onError: (m) => errors.push(m) });
      await Promise.all([b.stop(), b.stop()]);
      await b.stop();
      await sleep(50);
      assert.deepEqual(errors, [], 'stopping twice reports nothing');
      // The writer's connection is untouched by the workers going away.
      db.prepare('insert into t (v) values (?)').run('after stop');
      assert.equal(db.prepare('select count(*) from t').pluck().get(), 11);
    } finally {
      db.close();
    }
  });

  it('reports a file that is not a database through onError on every attempt, keeps going, and still stops', { timeout: 60_000 }, async () => {
    const file = path.join(dir, 'not-a-database.sqlite');
    const text = 'this is plain text, not an SQLite database\n'.repeat(200);
    fs.writeFileSync(file, text);
    const errors: string[] = [];
    const checkpointer = startCheckpointer(file, { intervalMs: 20, onError: (m) => errors.push(m) });
    try {
      assert.ok(await eventually(() => errors.length >= 2, 15_000), 'an error per interval, not one and then silence');
    } finally {
      await checkpointer.stop();
    }
    assert.ok(errors.every((m) => m === 'SqliteError: file is not a database'), errors.join('\n'));
    assert.equal(fs.readFileSync(file, 'utf8'), text, 'the file is left as it was');
  });

  it('reports a file it cannot open through onError; stop() still resolves', { timeout: 60_000 }, async () => {
    const errors: string[] = [];
    const checkpointer = startCheckpointer(path.join(dir, 'no-such-dir', 'x.sqlite'), { intervalMs: 20, restartDelayMs: 60_000, onError: (m) => errors.push(m) });
    assert.ok(await eventually(() => errors.length >= 2, 15_000));
    assert.match(errors[0]!, /directory does not exist/);
    assert.match(errors[1]!, /checkpoint worker exited \(code 1\); restarting it in 60000 ms/);
    await checkpointer.stop();
    await checkpointer.stop();
    await sleep(100);
    assert.equal(errors.length, 2, 'reported once, and the pending restart was cancelled by stop()');
  });

  // A 'message' listener refs a worker again, so unref() must come after the listeners.
  it('a checkpointer that is never stopped does not keep the process alive', { timeout: 60_000 }, () => {
    const { file, db } = walFileWithoutAutocheckpoint(dir, 'unref.sqlite', 10);
    db.close();
    const script = path.join(dir, 'child.mjs');
    const moduleUrl = new URL('../../src/db/sqlite-checkpointer.ts', import.meta.url).href;
    fs.writeFileSync(script, `const { startCheckpointer } = await import(${JSON.stringify(moduleUrl)});\nstartCheckpointer(${JSON.stringify(file)}, { intervalMs: 10 });\nconsole.log('started');\n`);
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });
    assert.equal(child.error, undefined, 'the child exited by itself');
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout.trim(), 'started');
  });
});

describe('sqlite checkpointer (in openDatabase)', () => {
  let dataDir: string;
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-checkpointer-db-'));
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const account = (i: number): AccountsTable => ({
    id: `acct_${String(i).padStart(4, '0')}`, name: `Account ${i} ${'n'.repeat(100)}`, email: null, plan: 'paid',
    monthly_limit: null, per_minute_limit: null, created_at: NOW, updated_at: NOW,
  });

  it('writes through the handle reach the main file within about one interval; close() leaves them readable', { timeout: 60_000 }, async () => {
    const errors: string[] = [];
    const handle = openDatabase({ dataDir, onCheckpointError: (m) => errors.push(m) });
    const file = path.join(dataDir, 'formsign.sqlite');
    let closed = false;
    try {
      await migrateToLatest(handle);
      await Promise.all(Array.from({ length: 1000 }, (_, i) => handle.transact((trx) => trx.insertInto('accounts').values(account(i)).execute())));
      const walBytes = fs.statSync(`${file}-wal`).size;
      assert.ok(walBytes > 0, 'the writes went to the WAL');
      // The automatic checkpoint is a far-off backstop (100000 pages): only the worker copies this.
      // Without the worker they would never get there; the deadline is a few default intervals (1 s)
      // with room for a loaded machine.
      assert.ok(await eventually(() => rowsInMainFile(dataDir, file, 'accounts') === 1000, 15_000), 'the rows reached the main file');

      await handle.close();
      closed = true;
    } finally {
      if (!closed) await handle.close();
    }
    assert.deepEqual(errors, []);
    // Closed cleanly: the last connection folded the WAL back, and a new connection reads everything.
    assert.ok(!fs.existsSync(`${file}-wal`) || fs.statSync(`${file}-wal`).size === 0, 'no WAL content left behind');
    const again = new SQLite(file);
    try {
      assert.equal(again.prepare('select count(*) from accounts').pluck().get(), 1000);
      assert.equal(again.prepare('select name from accounts where id = ?').pluck().get('acct_0999'), account(999).name);
      assert.equal(again.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      again.close();
    }
  });

  it('keeps the WAL bounded under steady batch writes: the writer starts it over when the worker asks', { timeout: 60_000 }, async () => {
    const steadyDir = fs.mkdtempSync(path.join(dataDir, 'steady-'));
    const handle = openDatabase({ dataDir: steadyDir, walRestartFrames: 500 });
    await migrateToLatest(handle);
    const wal = path.join(steadyDir, 'formsign.sqlite-wal');
    // A busy server's pattern: a batch commit every couple of milliseconds. The worker alone never
    // finds the WAL fully copied between two commits, so without the writer's checkpoint it would grow.
    // Driven by bytes written rather than by time, so a loaded machine (or a slow fsync: the store runs
    // synchronous = FULL) applies the same pressure, only more slowly.
    let written = 0;
    let largest = 0;
    for (let b = 0; written < 6_000_000; b++) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          handle.transact((trx) => trx.insertInto('accounts').values({ ...account(b * 50 + i), id: `acct_steady_${b}_${i}`, name: 'z'.repeat(1000) }).execute()),
        ),
      );
      written += 50 * 1000;
      largest = Math.max(largest, fs.statSync(wal).size);
      await sleep(2);
    }
    await handle.close();
    assert.ok(written > 5_000_000, `wrote ${written} bytes`);
    // 500 frames of 4 KiB, plus what is written until the worker's next pass (every 200 ms) asks.
    assert.ok(largest < 8_000_000, `the WAL reached ${largest} bytes while ${written} were written`);
  });

  it('close() resolves promptly right after opening, and the store opens again with its data', { timeout: 60_000 }, async () => {
    const first = openDatabase({ dataDir });
    await first.close();
    const second = openDatabase({ dataDir });
    try {
      assert.deepEqual(await migrateToLatest(second), [], 'already migrated');
      const n = await second.db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(n.n), 1000);
    } finally {
      await second.close();
    }
  });
});
