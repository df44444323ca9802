import SQLite from 'better-sqlite3';

export class WorkerLockedError extends Error {
  constructor(file: string) {
    super(
      `Another process already runs the job worker on this SQLite database (it holds ${file}). ` +
        'With SQLite only one process may run it: stop the other `formsign worker`, or set WORKER=off on this server.',
    );
    this.name = 'WorkerLockedError';
  }
}

/**
 * SQLite has one writer, and two workers would only contend for it, so one process holds the worker.
 * The lock is an exclusive transaction held open on a small file beside the database: the operating
 * system drops it when the process ends, however it ends (even SIGKILL), so there is never a stale
 * lock to clean up, and a second holder — another process or this one — is refused at once.
 */
export function acquireSqliteWorkerLock(file: string): { release(): void } {
  const db = new SQLite(file, { timeout: 0 });
  try {
    db.pragma('journal_mode = DELETE');
    db.exec('begin exclusive');
  } catch (error) {
    db.close();
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('SQLITE_BUSY')) throw new WorkerLockedError(file);
    throw error;
  }
  return {
    release() {
      db.exec('rollback');
      db.close();
    },
  };
}
