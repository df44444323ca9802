import type { Db } from './database.js';
import { directRunners } from './prepared-insert.js';

/**
 * A unit of work: reads and writes through the connection it is given, and nothing else (no other
 * I/O, no waiting). It may run more than once: SQLite's group commit reruns the units of a failed
 * batch one by one.
 */
export type WriteUnit<T> = (trx: Db) => Promise<T>;

/**
 * Runs a unit of work in a transaction and resolves once it is committed; a unit that throws is rolled
 * back on its own and its error is the one rejected.
 */
export type Transact = <T>(unit: WriteUnit<T>) => Promise<T>;

/** PostgreSQL: one transaction per unit; the pool's connections commit concurrently. */
export function transactEach(db: Db): Transact {
  return (unit) => db.transaction().execute(unit);
}

/** The SQLite connection underneath Kysely, used synchronously while the batch holds it. */
export interface SqliteConnection {
  run(sql: string, parameters: readonly unknown[]): void;
  inTransaction(): boolean;
  /** Runs after a batch commits, outside any transaction (the WAL restart, see sqlite-checkpointer.ts). */
  afterCommit(): void;
}

interface Pending {
  unit: WriteUnit<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A unit caught an error that made SQLite abandon the transaction, and carried on as if it had not. */
class TransactionEndedError extends Error {
  constructor() {
    super('A unit of work ended the shared transaction (it caught an error that rolled it back).');
  }
}

/**
 * SQLite: group commit. SQLite has one writer, and a commit's cost is the pages it writes to the WAL,
 * many of them index pages shared between consecutive writes. Units that arrive in the same turn of the
 * event loop therefore share one `begin immediate … commit`. A unit's promise settles only after that
 * commit, so no caller ever sees a write that could still be lost; better-sqlite3 is synchronous, so a
 * batch runs to its end without yielding to I/O and adds no latency beyond the turn it waits for.
 *
 * Isolation without savepoints (they cost about as much as the inserts they guard): if a unit throws,
 * the batch is rolled back and its units run again one by one, so only the failing one fails. When the
 * transaction itself cannot begin or commit (lock timeout, I/O error), every unit of the batch gets that
 * error at once instead of waiting for the lock again one by one.
 *
 * While a batch holds Kysely's connection, statements are run on better-sqlite3 directly: `begin`,
 * `commit` and prepared inserts (prepared-insert.ts) skip Kysely's asynchronous executor, which costs
 * more than the insert itself. Other queries of a unit go through Kysely on the same connection.
 */
export function groupCommit(db: Db, sqlite: SqliteConnection, maxBatch = 200): Transact {
  let queue: Pending[] = [];
  let scheduled = false;

  const drain = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      try {
        await db.connection().execute(async (conn) => {
          directRunners.set(conn, sqlite.run);
          await runBatch(conn, sqlite, batch);
        });
      } catch (error) {
        // The connection could not be had (the store is closed): nothing ran.
        for (const p of batch) p.reject(error);
      }
    }
    scheduled = false;
  };

  return <T>(unit: WriteUnit<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ unit, resolve: resolve as (v: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        // setImmediate runs after this turn's I/O callbacks, so every request parsed in it joins.
        setImmediate(() => void drain());
      }
    });
}

async function runBatch(conn: Db, sqlite: SqliteConnection, batch: Pending[]): Promise<void> {
  try {
    sqlite.run('begin immediate', []);
  } catch (error) {
    for (const p of batch) p.reject(error);
    return;
  }
  const values: unknown[] = [];
  try {
    for (const p of batch) {
      values.push(await p.unit(conn));
      if (!sqlite.inTransaction()) throw new TransactionEndedError();
    }
  } catch (error) {
    if (sqlite.inTransaction()) sqlite.run('rollback', []);
    if (batch.length === 1) batch[0]!.reject(error);
    else for (const p of batch) await runBatch(conn, sqlite, [p]);
    return;
  }
  try {
    sqlite.run('commit', []);
  } catch (error) {
    if (sqlite.inTransaction()) sqlite.run('rollback', []);
    for (const p of batch) p.reject(error);
    return;
  }
  batch.forEach((p, i) => p.resolve(values[i]));
  try {
    sqlite.afterCommit();
  } catch {
    // A checkpoint that cannot run now (a reader in the way) is retried at the worker's next request.
  }
}
