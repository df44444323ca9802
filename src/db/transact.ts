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
const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to unit');

/**
 * SQLite: group commit. SQLite has one writer, and a commit's cost is the pages it writes to the WAL,
 * most of them index pages shared between consecutive writes. Units that arrive in the same turn of the
 * event loop therefore share one `begin immediate … commit`, each inside its own savepoint so a failing
 * unit rolls back only its own writes. A unit's promise settles only after the shared commit, so no
 * caller ever sees a write that could still be lost. better-sqlite3 is synchronous, so a batch runs to
 * its end without yielding to I/O and adds no latency beyond the turn it waits for.
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
  const done: Array<{ p: Pending; value: unknown }> = [];
  try {
    await conn.executeQuery(BEGIN);
  } catch (error) {
    for (const p of batch) p.reject(error);
    return;
  }
  try {
    for (const p of batch) {
      await conn.executeQuery(SAVEPOINT);
      let value: unknown;
      try {
        value = await p.unit(conn);
      } catch (error) {
        await conn.executeQuery(ROLLBACK_TO);
        await conn.executeQuery(RELEASE);
        p.reject(error);
        continue;
      }
      await conn.executeQuery(RELEASE);
      done.push({ p, value });
    }
    await conn.executeQuery(COMMIT);
  } catch (error) {
    // The transaction itself failed (I/O error, full disk): nothing in it was committed.
    await conn.executeQuery(ROLLBACK).catch(() => undefined);
    for (const p of batch) p.reject(error); // units already rejected keep their own error
    return;
  }
  for (const { p, value } of done) p.resolve(value);
}
