import type { CompiledQuery, QueryResult } from 'kysely';
import type { Db } from './database.js';

/**
 * `compile` run once per Kysely adapter (so per dialect) and key, its result kept: hot paths build and
 * compile the same query shapes every time, which costs more than SQLite takes to run them.
 */
export function oncePerAdapter<K, T>(compile: (db: Db, key: K) => T): (db: Db, key: K) => T {
  const byAdapter = new WeakMap<object, Map<K, T>>();
  return (db, key) => {
    const adapter = db.getExecutor().adapter;
    let byKey = byAdapter.get(adapter);
    if (!byKey) byAdapter.set(adapter, (byKey = new Map()));
    let compiled = byKey.get(key);
    if (compiled === undefined) byKey.set(key, (compiled = compile(db, key)));
    return compiled;
  };
}

/** A compiled query run again with new parameters: same SQL and operation node (no plugin here keys anything on the query id). */
export function rerun<R>(db: Db, compiled: CompiledQuery, parameters: readonly unknown[]): Promise<QueryResult<R>> {
  return db.executeQuery<R>({ ...compiled, parameters });
}
