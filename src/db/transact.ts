import type { DatabaseConnection, Dialect, Driver, Kysely } from 'kysely';
import { ScopedContext } from '../lib/scoped-context.js';
import { directRunners } from './prepared-insert.js';
import type { Database } from './tables.js';

declare const trxBrand: unique symbol;

/**
 * A handle to an open write transaction. Only `transact` makes one, and repository functions that
 * write take a `Trx`, so a write through the plain `Db` (outside any transaction, or beside the unit's
 * own transaction) does not compile. A `Trx` is also a `Db`: reads take either.
 */
export type Trx = Kysely<Database> & { readonly [trxBrand]: true };

/**
 * A unit of work: reads and writes through the handle it is given and nothing else (no other I/O, no
 * waiting on anything but its own queries). It runs exactly once. Touching the plain `Db` or calling
 * `transact` from inside a unit throws at once (see `guardDialect`): on SQLite either would wait
 * forever for the one connection the unit's batch holds.
 */
export type WriteUnit<T> = (trx: Trx) => Promise<T>;

/**
 * Runs a unit of work in a transaction and resolves once it is committed (durably: see database.ts);
 * a unit that throws is rolled back on its own and its error is the one rejected.
 */
export type Transact = <T>(unit: WriteUnit<T>) => Promise<T>;

/** Marks the async context of a running unit (switched on only while a unit runs: see ScopedContext). */
const insideUnit = new ScopedContext<true>();

export class UnitMisuseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnitMisuseError';
  }
}

function refuseInsideUnit(what: string): void {
  if (insideUnit.get()) {
    throw new UnitMisuseError(`${what} inside a unit of work: use the transaction handle the unit was given (on SQLite this would wait forever for the connection the unit holds).`);
  }
}

function runUnit<T>(unit: WriteUnit<T>, trx: Kysely<Database>): Promise<T> {
  return insideUnit.run(true, () => unit(trx as Trx));
}

/**
 * Wraps a dialect so that a query needing a connection of its own (any query through the plain `Db`)
 * throws when issued from inside a unit of work, on both dialects alike. A unit's own queries run on
 * the connection its transaction already holds and never ask for another.
 */
export function guardDialect(inner: Dialect): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: () => {
      const driver = inner.createDriver();
      return new Proxy(driver, {
        get(target, key, receiver) {
          if (key === 'acquireConnection') {
            return async (): Promise<DatabaseConnection> => {
              refuseInsideUnit('The plain database handle (deps.db) was used');
              return target.acquireConnection();
            };
          }
          const value: unknown = Reflect.get(target, key, receiver);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      }) satisfies Driver;
    },
  };
}

/** PostgreSQL: one transaction per unit; the pool's connections commit concurrently. */
export function transactEach(db: Kysely<Database>): Transact {
  return async (unit) => {
    refuseInsideUnit('transact() was called');
    return db.transaction().execute((trx) => runUnit(unit, trx));
  };
}

/** The SQLite connection underneath Kysely, used synchronously while a batch holds it. */
export interface SqliteConnection {
  run(sql: string, parameters: readonly unknown[]): void;
  inTransaction(): boolean;
  /** Runs after a batch commits, outside any transaction (the WAL restart, see sqlite-checkpointer.ts). */
  afterCommit(): void;
  /** Resolves once every commit made so far is on disk (wal-sync.ts: the WAL flushed off the event loop). */
  durable(): Promise<void>;
}

/**
 * Shared between the group commit and the SQLite statement cache (database.ts): while a batch is open,
 * every statement on the connection is the batch's, and none may run once SQLite has abandoned the
 * transaction (it would autocommit on its own, behind a unit whose promise rejects).
 */
export class BatchState {
  open = false;

  assertUsable(inTransaction: boolean): void {
    if (this.open && !inTransaction) throw new TransactionEndedError();
  }
}

interface Pending {
  unit: WriteUnit<unknown>;
  /** Settles once the commit is on disk; otherwise as soon as it is committed (replayable work). */
  durable: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A unit went on after an error that made SQLite abandon the whole transaction (disk full, I/O error, …). */
export class TransactionEndedError extends Error {
  constructor() {
    super('The shared transaction ended (an error rolled it back); this statement was refused so that nothing commits outside it.');
    this.name = 'TransactionEndedError';
  }
}

/**
 * A unit whose writes were lost because another unit of its batch made SQLite abandon the shared
 * transaction. Nothing of it committed; retrying it is safe.
 */
export class BatchAbortedError extends Error {
  readonly retryable = true;
  constructor(readonly reason: unknown) {
    super('The write was rolled back together with others in its transaction (another write failed at the storage level); nothing was saved, and it is safe to retry.');
    this.name = 'BatchAbortedError';
  }
}

/**
 * SQLite: group commit. SQLite has one writer, and a commit's cost is the pages it writes to the WAL
 * (and one flush of the WAL to disk), many of them index pages shared between consecutive
 * writes. Units that arrive in the same turn of the event loop therefore share one
 * `begin immediate … commit`, each inside a SAVEPOINT of its own: a unit that throws is rolled back to
 * its savepoint and rejects alone, while the others commit exactly once. A unit's promise settles only
 * once the commit is on disk (`durable`, flushed off the event loop while the next batch runs), so no
 * caller is ever told of a write that a power loss could still take back.
 *
 * When SQLite abandons the transaction itself (an error such as SQLITE_FULL or an I/O error, or a unit's
 * `or rollback`, rolls back everything), the unit that caused it rejects with that error, the units
 * before it (whose writes went too) reject with a retryable `BatchAbortedError`, the units after it run
 * in the next batch, and any further statement on the abandoned transaction is refused (`BatchState`)
 * instead of running in autocommit. No unit ever runs twice.
 *
 * While a batch holds Kysely's connection, `begin`, savepoints, `commit` and prepared inserts run on
 * better-sqlite3 directly: Kysely's asynchronous executor costs more than the insert itself.
 */
export function groupCommit(db: Kysely<Database>, sqlite: SqliteConnection, state: BatchState, maxBatch = 200): { transact: Transact; transactReplayable: Transact } {
  let queue: Pending[] = [];
  let scheduled = false;

  const drain = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      try {
        const notRun = await db.connection().execute(async (conn) => runBatch(conn, sqlite, state, batch));
        // Units the batch never reached (it ended early) run in the next one, still exactly once.
        if (notRun.length > 0) queue = [...notRun, ...queue];
      } catch (error) {
        // The connection could not be had (the store is closed): nothing ran.
        for (const p of batch) p.reject(error);
      }
    }
    scheduled = false;
  };

  const enter = (durable: boolean): Transact => <T>(unit: WriteUnit<T>) => {
    refuseInsideUnit('transact() was called');
    return new Promise<T>((resolve, reject) => {
      queue.push({ unit, durable, resolve: resolve as (v: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        // setImmediate runs after this turn's I/O callbacks, so every request parsed in it joins.
        setImmediate(() => void drain());
      }
    });
  };
  // Replayable units (DatabaseHandle.transactReplayable) share the batches but settle at the commit:
  // the WAL is in the page cache (it survives the process), and the next durable flush covers it.
  return { transact: enter(true), transactReplayable: enter(false) };
}

/** Runs one batch; returns the units it did not reach because SQLite abandoned the transaction. */
async function runBatch(conn: Kysely<Database>, sqlite: SqliteConnection, state: BatchState, batch: Pending[]): Promise<Pending[]> {
  try {
    sqlite.run('begin immediate', []);
  } catch (error) {
    for (const p of batch) p.reject(error);
    return [];
  }
  state.open = true;
  directRunners.set(conn, sqlite.run);
  const done: Array<{ p: Pending; value: unknown }> = [];
  let ended: { error: unknown; at: number } | undefined;
  try {
    for (let i = 0; i < batch.length && !ended; i++) {
      const p = batch[i]!;
      sqlite.run('savepoint unit', []);
      try {
        const value = await runUnit(p.unit, conn);
        if (!sqlite.inTransaction()) throw new TransactionEndedError();
        sqlite.run('release unit', []);
        done.push({ p, value });
      } catch (error) {
        p.reject(error);
        if (sqlite.inTransaction()) {
          sqlite.run('rollback to unit', []);
          sqlite.run('release unit', []);
        } else {
          ended = { error, at: i };
        }
      }
    }
  } finally {
    // A handle kept past its unit must not reach the connection directly any more.
    state.open = false;
    directRunners.delete(conn);
  }
  if (ended) {
    // What the earlier units wrote went with the transaction. They ran, so they are not run again (a
    // unit's JavaScript runs once): they reject with a retryable error; the later ones never ran.
    for (const { p } of done) p.reject(new BatchAbortedError(ended.error));
    return batch.slice(ended.at + 1);
  }
  try {
    sqlite.run('commit', []);
  } catch (error) {
    if (sqlite.inTransaction()) sqlite.run('rollback', []);
    for (const { p } of done) p.reject(error);
    return [];
  }
  const waiting = done.filter(({ p }) => p.durable);
  for (const { p, value } of done) if (!p.durable) p.resolve(value);
  if (waiting.length > 0) {
    sqlite.durable().then(
      () => { for (const { p, value } of waiting) p.resolve(value); },
      // Committed, but whether it reached the disk is unknown: the callers are told it failed.
      (error: unknown) => { for (const { p } of waiting) p.reject(error); },
    );
  }
  try {
    sqlite.afterCommit();
  } catch {
    // A checkpoint that cannot run now (a reader in the way) is retried at the worker's next request.
  }
  return [];
}
