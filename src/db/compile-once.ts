import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Db } from './handles.js';

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

// A stand-in value that cannot come from a caller: it marks where an argument lands among the parameters.
const PROBE = '\u0000formsign-argument:';

/** Where each parameter of a compiled statement comes from: an argument by name, or a constant. */
export type Slot<A> = { arg: keyof A & string } | { value: unknown };

export interface Probed<R, A> {
  compiled: CompiledQuery<R>;
  slots: Slot<A>[];
}

/**
 * Compiles `build` once with stand-ins for its arguments and records where each lands among the
 * parameters, so the statement can be rerun with new values without building it again. `build` may
 * only pass arguments on as values: one derived from an argument (arithmetic, concatenation) or one
 * that shaped the statement instead of landing in it is refused here, on first compile. `what` names
 * the caller in those errors.
 */
export function compileWithProbes<A extends object, R, S>(what: string, db: Db, build: (db: Db, args: A, shape: S) => Compilable<R>, shape: S): Probed<R, A> {
  const read = new Set<string>();
  const probe = new Proxy(
    {},
    {
      get: (_t, name) => {
        if (typeof name !== 'string') return undefined;
        read.add(name);
        return PROBE + name;
      },
    },
  ) as A;
  const compiled = build(db, probe, shape).compile();
  const used = new Set<string>();
  const slots = compiled.parameters.map((v): Slot<A> => {
    if (typeof v !== 'string' || !v.includes(PROBE)) return { value: v };
    const arg = v.slice(PROBE.length);
    if (!v.startsWith(PROBE) || !read.has(arg)) throw new Error(`${what}: a parameter was derived from an argument (${JSON.stringify(v.replaceAll(PROBE, '$'))}); pass arguments through unchanged`);
    used.add(arg);
    return { arg: arg as keyof A & string };
  });
  const unused = [...read].filter((a) => !used.has(a));
  if (unused.length > 0) throw new Error(`${what}: argument(s) ${unused.join(', ')} shaped the query instead of being values in it`);
  return { compiled, slots };
}
