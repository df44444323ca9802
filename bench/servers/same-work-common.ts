// What the same-work floors share: the key hash, the access log as Formsign writes it (pino's
// asynchronous destination), and a SQLite store of their own configured as Formsign's.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pino from 'pino';

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

export const accessLog = (): pino.Logger => pino({ base: { pid: process.pid, hostname: 'bench' } }, pino.destination({ dest: '/dev/null', sync: false }));

/**
 * A store of the floor's own with the tables (and indexes) `ddl` creates, as Formsign configures
 * SQLite: WAL, NORMAL, the WAL flushed (fdatasync on `walFd`) before answering. `insert` prepares an
 * insert of a row with the given row's columns. Removed when the process exits.
 */
export function floorStore(prefix: string, ddl: ReadonlyArray<{ sql: string }>, pragmas: readonly string[] = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `formsign-${prefix}-`));
  const db = new SQLite(path.join(dir, 'floor.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  for (const p of pragmas) db.pragma(p);
  for (const d of ddl) db.exec(d.sql);
  const insert = (table: string, row: Record<string, unknown>) =>
    db.prepare(`insert into ${table} (${Object.keys(row).map((k) => `"${k}"`).join(', ')}) values (${Object.keys(row).map((k) => `@${k}`).join(', ')})`);
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  /** Opened once the WAL exists (after the first write). */
  const openWal = (): number => fs.openSync(path.join(dir, 'floor.sqlite-wal'), 'r');
  return { db, insert, openWal };
}
