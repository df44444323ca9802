import type { Compilable, QueryResult } from 'kysely';
import { compileWithProbes, oncePerAdapter, rerun, type Probed } from './compile-once.js';
import type { Db, Trx } from './handles.js';

/**
 * An update (or any write) built and compiled by Kysely once per dialect and shape, then rerun with new
 * arguments: the worker's per-job statements (the claim, marking a job done and claiming the next)
 * cost more to build and compile than to send. The result keeps the affected-row count, which the
 * fenced updates answer with.
 *
 * Like preparedQuery, `build` receives stand-ins and may only pass them on as values (an argument used
 * any other way, or left out, is refused when first compiled); `shape` is a real value the statement is
 * compiled for, one statement per value (a LIMIT, a dialect's locking clause). Unlike a read, a write's
 * `set` drops a column whose value is undefined, so every argument must always be given.
 */
export function preparedWrite<A extends object, R, S extends string | number = never>(
  build: (db: Db, args: A, shape: S) => Compilable<R>,
): (trx: Trx, args: A, ...shape: [S] extends [never] ? [] : [S]) => Promise<QueryResult<R>> {
  const compile = (db: Db, shape: S): Probed<R, A> => compileWithProbes('preparedWrite', db, build, shape);
  const prepare = oncePerAdapter(compile);
  return (trx, args, ...rest) => {
    const prepared = prepare(trx, rest[0] as S);
    const parameters = prepared.slots.map((s) => {
      if (!('arg' in s)) return s.value;
      const v = args[s.arg];
      // An undefined value would have dropped its column had the statement been built for it.
      if (v === undefined) throw new Error(`preparedWrite: argument ${s.arg} is undefined`);
      return v;
    });
    return rerun<R>(trx, prepared.compiled, parameters);
  };
}
