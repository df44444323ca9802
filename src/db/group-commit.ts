import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import { durableTransact, replayableTransact, type Db, type ReplayableTransact, type Transact, type WriteUnit } from './handles.js';
import type { Database } from './tables.js';
import { refuseInsideUnit, runUnit } from './transact.js';

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
 * The longest a unit may hold the batch. Every unit of a batch and every unit queued behind it waits
 * while one runs, so a unit is a few statements on the connection it is given (well under a
 * millisecond each); one that waits on anything else, or writes thousands of rows, stalls every
 * writer of the process.
 */
export const UNIT_LIMIT_MS = 50;

/**
 * In strict mode, the hold past which a unit throws even if it never let the event loop turn. Far
 * above UNIT_LIMIT_MS because a shared test machine's scheduling (dozens of runnable processes on two
 * cores, a GC pause, the first compile of a statement) alone stretches a few statements past 50 ms,
 * even past 250 (measured at load 26); a unit holding the batch for a second is a unit to split.
 */
export const STRICT_UNIT_CEILING_MS = 1000;

export interface UnitWatchdog {
  /** Default UNIT_LIMIT_MS. */
  readonly limitMs?: number;
  /** Told of each unit that held the batch longer than the limit (the server logs and counts it). */
  readonly onSlow?: (heldMs: number) => void;
  /**
   * Tests: a unit that let the event loop turn while holding the batch (on SQLite a unit's own
   * statements never do, so it waited on something else), or that held it past
   * STRICT_UNIT_CEILING_MS, is rolled back and rejects with `SlowUnitError`, so the test that wrote it
   * fails where it wrote. Never set in production, where the unit's writes are kept and only reported.
   */
  readonly strict?: boolean;
}

/** A unit broke the group commit's rule (strict mode only): it waited inside the batch, or held it far too long. */
export class SlowUnitError extends Error {
  constructor(readonly heldMs: number, readonly limitMs: number, readonly waited: boolean) {
    super(`A unit of work held the SQLite group commit for ${heldMs.toFixed(1)} ms (limit ${limitMs} ms)${waited ? ' and waited on something other than its own statements (the event loop turned inside it)' : ''}: a unit may only run its own statements; move other waiting out of it, or split a large write.`);
    this.name = 'SlowUnitError';
  }
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

/**
 * Connections held by an open batch, which runs statements on better-sqlite3 directly; an entry lives
 * exactly as long as its batch, so a handle kept past its unit cannot reach the connection.
 */
const directRunners = new WeakMap<Db, (sql: string, parameters: readonly unknown[]) => void>();

/** The synchronous runner of the batch that holds `handle`, if one does (prepared-insert.ts uses it). */
export const directRunnerOf = (handle: Db): ((sql: string, parameters: readonly unknown[]) => void) | undefined => directRunners.get(handle);

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
 * its savepoint and rejects alone, while the others commit exactly once. A durable unit's promise
 * settles only once the commit is on disk (`durable`, flushed off the event loop while the next batch
 * runs), so no caller is ever told of a write that a power loss could still take back; a replayable
 * unit's settles at the commit (the WAL is in the page cache, and the next durable flush covers it).
 *
 * When SQLite abandons the transaction itself (an error such as SQLITE_FULL or an I/O error, or a unit's
 * `or rollback`, rolls back everything), the unit that caused it rejects with that error, the units
 * before it (whose writes went too) reject with a retryable `BatchAbortedError`, the units after it run
 * in the next batch, and any further statement on the abandoned transaction is refused (`BatchState`)
 * instead of running in autocommit. No unit ever runs twice.
 *
 * While a batch holds Kysely's connection, `begin`, savepoints, `commit` and prepared inserts run on
 * better-sqlite3 directly (`directRunnerOf`): Kysely's asynchronous executor costs more than the insert.
 * Each unit's time in the batch is watched (`UnitWatchdog`).
 */
export function groupCommit(
  db: Kysely<Database>,
  sqlite: SqliteConnection,
  state: BatchState,
  watchdog: UnitWatchdog = {},
  maxBatch = 200,
): { transact: Transact; transactReplayable: ReplayableTransact } {
  let queue: Pending[] = [];
  let scheduled = false;
  const watch = { limitMs: watchdog.limitMs ?? UNIT_LIMIT_MS, onSlow: watchdog.onSlow, strict: watchdog.strict === true };

  const drain = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      try {
        const notRun = await db.connection().execute(async (conn) => runBatch(conn, sqlite, state, batch, watch));
        // Units the batch never reached (it ended early) run in the next one, still exactly once.
        if (notRun.length > 0) queue = [...notRun, ...queue];
      } catch (error) {
        // The connection could not be had (the store is closed): nothing ran.
        for (const p of batch) p.reject(error);
      }
    }
    scheduled = false;
  };

  const enter = (durable: boolean) => <T>(unit: WriteUnit<T>) => {
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
  return { transact: durableTransact(enter(true)), transactReplayable: replayableTransact(enter(false)) };
}

type Watch = { limitMs: number; onSlow: ((heldMs: number) => void) | undefined; strict: boolean };

/** Runs one batch; returns the units it did not reach because SQLite abandoned the transaction. */
async function runBatch(conn: Kysely<Database>, sqlite: SqliteConnection, state: BatchState, batch: Pending[], watch: Watch): Promise<Pending[]> {
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
        // A turn of the event loop during the unit means it waited on something else (strict mode).
        // The batch may itself run in a check phase (drain starts from setImmediate), where a new
        // immediate waits for the next loop while a timer the unit awaits fires first: both are watched.
        let turned = false;
        const turnImmediate = watch.strict ? setImmediate(() => (turned = true)) : undefined;
        const turnTimer = watch.strict ? setTimeout(() => (turned = true), 0) : undefined;
        const started = performance.now();
        let value: unknown;
        try {
          value = await runUnit(p.unit, conn);
        } finally {
          clearImmediate(turnImmediate);
          clearTimeout(turnTimer);
        }
        const heldMs = performance.now() - started;
        if (heldMs > watch.limitMs) watch.onSlow?.(heldMs);
        if (watch.strict && (turned || heldMs > STRICT_UNIT_CEILING_MS)) throw new SlowUnitError(heldMs, watch.limitMs, turned);
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
