import type { Kysely } from 'kysely';
import type { Database } from './tables.js';

// The handles through which code reaches the store, in a file of their own so that every module of
// db/ can name them without importing the modules that make them (no import circle in db/).

/** The plain handle: reads, and nothing that writes (writes take a `Trx`). */
export type Db = Kysely<Database>;

declare const trxBrand: unique symbol;

/**
 * A handle to an open write transaction. Only a transact function makes one, and repository
 * functions that write take a `Trx`, so a write through the plain `Db` (outside any transaction, or
 * beside the unit's own transaction) does not compile. A `Trx` is also a `Db`: reads take either.
 */
export type Trx = Db & { readonly [trxBrand]: true };

/**
 * A unit of work: reads and writes through the handle it is given and nothing else (no other I/O, no
 * waiting on anything but its own queries). It runs exactly once. Touching the plain `Db` or calling
 * a transact function from inside a unit throws at once (transact.ts: `guardDialect`); a unit that
 * holds SQLite's group commit longer than the watchdog allows is reported (group-commit.ts).
 */
export type WriteUnit<T> = (trx: Trx) => Promise<T>;

declare const durableBrand: unique symbol;
declare const replayableBrand: unique symbol;

/**
 * Runs a unit of work in a transaction and resolves once it is committed and on disk; a unit that
 * throws is rolled back on its own and its error is the one rejected. The one way use cases write.
 */
export type Transact = (<T>(unit: WriteUnit<T>) => Promise<T>) & { readonly [durableBrand]: true };

/**
 * Runs a unit like `Transact` but may resolve before the commit is on disk (PostgreSQL:
 * `synchronous_commit = off`, flushed within a few hundred ms; SQLite: settles at the commit, before
 * the WAL flush the next durable write makes). Only for the worker's own bookkeeping whose loss to a
 * power failure is repaired by running it again (a claim, a lease renewal, the publisher's feed, the
 * outcome of a `replayableOutcome` job); never for a write a client is told about. Its own brand:
 * passing one where the other is expected does not compile, so a use case asks for it by this name.
 */
export type ReplayableTransact = (<T>(unit: WriteUnit<T>) => Promise<T>) & { readonly [replayableBrand]: true };

/** Brands a transact function made by the store (transact.ts, group-commit.ts); nothing else makes one. */
export const durableTransact = (run: <T>(unit: WriteUnit<T>) => Promise<T>): Transact => run as Transact;
export const replayableTransact = (run: <T>(unit: WriteUnit<T>) => Promise<T>): ReplayableTransact => run as ReplayableTransact;
