import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Db } from './handles.js';

/**
 * Never two migrators at once (issue 27). Every process may apply migrations as it opens the store
 * (`formsign migrate`, and `serve`/`worker` unless MIGRATE_ON_START=off), so processes started
 * together must take turns: the first applies what is pending, the others wait for it and then find
 * nothing left to do. Whoever waits says so once, so a start that pauses is not a mystery.
 */
export interface MigrationLock {
  hold<T>(migrate: () => Promise<T>): Promise<T>;
}

export class MigrationLockTimeoutError extends Error {
  constructor(readonly file: string, waitedMs: number) {
    super(`Another process has been migrating this SQLite database for ${Math.round(waitedMs / 1000)} s (it holds ${file}); this one gave up waiting. Let that \`formsign migrate\` finish (or end it), then start again.`);
    this.name = 'MigrationLockTimeoutError';
  }
}

/** Kysely's migrator holds this PostgreSQL advisory lock (transaction level) while it migrates. */
const KYSELY_PG_LOCK_ID = '3853314791062309107';

/**
 * PostgreSQL: Kysely's migrator already serialises migrators with a transaction-level advisory lock
 * (`pg_advisory_xact_lock` inside its migration transaction; the server drops it when that transaction
 * or its session ends, even on SIGKILL) and waits for it. This only asks first whether the lock is free,
 * on a connection of its own (a session-level try on the same key conflicts with it), so a waiting
 * process can say why it waits.
 */
export function pgMigrationLock(db: Db, onWait: (line: string) => void): MigrationLock {
  return {
    async hold(migrate) {
      const free = await db.connection().execute(async (conn) => {
        const { rows } = await sql<{ got: boolean }>`select pg_try_advisory_lock(${sql.lit(KYSELY_PG_LOCK_ID)}::bigint) as got`.execute(conn);
        if (rows[0]?.got) await sql`select pg_advisory_unlock(${sql.lit(KYSELY_PG_LOCK_ID)}::bigint)`.execute(conn);
        return rows[0]?.got === true;
      });
      if (!free) onWait(`formsign: another process is migrating this PostgreSQL database (it holds advisory lock ${KYSELY_PG_LOCK_ID}); waiting for it to finish.`);
      return migrate();
    },
  };
}

/**
 * SQLite: an exclusive transaction held open on a small file beside the database (the worker lock's
 * way, outbox/sqlite-worker-lock.ts): the operating system drops it when the process ends, however it
 * ends, so there is no stale lock. A busy lock is asked again every 100 ms without blocking the event
 * loop, for at most `waitMs`, then refused with a message naming the file.
 */
export function sqliteMigrationLock(file: string, onWait: (line: string) => void, waitMs = 120_000): MigrationLock {
  const tryTake = (): SQLite.Database | undefined => {
    const db = new SQLite(file, { timeout: 0 });
    try {
      db.pragma('journal_mode = DELETE');
      db.exec('begin exclusive');
      return db;
    } catch (error) {
      db.close();
      if (error instanceof Error && 'code' in error && String(error.code).startsWith('SQLITE_BUSY')) return undefined;
      throw error;
    }
  };
  return {
    async hold(migrate) {
      const started = Date.now();
      let held = tryTake();
      if (!held) onWait(`formsign: another process is migrating this SQLite database (it holds ${file}); waiting for it to finish.`);
      while (!held) {
        if (Date.now() - started > waitMs) throw new MigrationLockTimeoutError(file, Date.now() - started);
        await new Promise((r) => setTimeout(r, 100));
        held = tryTake();
      }
      try {
        return await migrate();
      } finally {
        held.exec('rollback');
        held.close();
      }
    },
  };
}
