import { CompiledQuery } from 'kysely';
import type { Db } from './database.js';

/** A unit of work: database writes only, on the connection it is given, no other waiting. */
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

interface Pending {
  unit: WriteUnit<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const BEGIN = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/**
 * SQLite: group commit. SQLite has one writer, and a commit's cost is the pages it writes to the WAL,
 * many of them index pages shared between consecutive writes. Units that arrive in the same turn of the
 * event loop therefore share one `begin immediate … commit`. A unit's promise settles only after that
 * commit, so no caller ever sees a write that could still be lost; better-sqlite3 is synchronous, so a
 * batch runs to its end without yielding to I/O and adds no latency beyond the turn it waits for.
 *
 * Isolation without savepoints (they cost about as much as the inserts they guard): if any unit of a
 * batch throws, the whole batch is rolled back and every unit runs again alone, so only the failing
 * one fails. A unit may therefore run twice; it must do nothing but write through the connection it is
 * given (which is what WriteUnit says).
 */
export function groupCommit(db: Db, maxBatch = 200): Transact {
  let queue: Pending[] = [];
  let scheduled = false;

  const drain = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      await db.connection().execute((conn) => runBatch(conn, batch));
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

async function runBatch(conn: Db, batch: Pending[]): Promise<void> {
  const values: unknown[] = [];
  try {
    await conn.executeQuery(BEGIN);
    for (const p of batch) values.push(await p.unit(conn));
    await conn.executeQuery(COMMIT);
  } catch (error) {
    // SQLite may already have rolled back (I/O error, full disk); then this rollback fails harmlessly.
    await conn.executeQuery(ROLLBACK).catch(() => undefined);
    if (batch.length === 1) batch[0]!.reject(error);
    else for (const p of batch) await runBatch(conn, [p]);
    return;
  }
  batch.forEach((p, i) => p.resolve(values[i]));
}
