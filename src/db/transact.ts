import type { DatabaseConnection, Dialect, Driver, Kysely } from 'kysely';
import { ScopedContext } from '../lib/scoped-context.js';
import { numberPendingEvents } from './event-order.js';
import { durableTransact, replayableTransact, type ReplayableTransact, type Transact, type Trx, type WriteUnit } from './handles.js';
import type { Database } from './tables.js';

/** Marks the async context of a running unit (switched on only while a unit runs: see ScopedContext). */
const insideUnit = new ScopedContext<true>();

export class UnitMisuseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnitMisuseError';
  }
}

export function refuseInsideUnit(what: string): void {
  if (insideUnit.get()) {
    throw new UnitMisuseError(`${what} inside a unit of work: use the transaction handle the unit was given (on SQLite this would wait forever for the connection the unit holds).`);
  }
}

/** Runs `unit` on `trx`, marked as inside a unit so that the guards below refuse a second handle. */
export function runUnit<T>(unit: WriteUnit<T>, trx: Kysely<Database>): Promise<T> {
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

const eachUnit = (db: Kysely<Database>) => async <T>(unit: WriteUnit<T>): Promise<T> => {
  refuseInsideUnit('transact() was called');
  return db.transaction().execute(async (trx) => {
    const result = await runUnit(unit, trx);
    // The events the unit appended get their place in the feed last, just before the commit (event-order.ts).
    await numberPendingEvents(trx);
    return result;
  });
};

/** PostgreSQL: one transaction per unit; the pool's connections commit concurrently. */
export const transactEach = (db: Kysely<Database>): Transact => durableTransact(eachUnit(db));

/** The same on a pool whose connections commit without waiting for the WAL flush (`synchronous_commit = off`). */
export const transactEachReplayable = (relaxed: Kysely<Database>): ReplayableTransact => replayableTransact(eachUnit(relaxed));
