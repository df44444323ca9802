import type { Compilable } from 'kysely';
import { compileWithProbes, oncePerAdapter, rerun, type Probed } from './compile-once.js';
import type { Db } from './handles.js';

/**
 * A read built and compiled by Kysely once per dialect, then rerun with new arguments. On the hot read
 * paths building and compiling the query cost more than SQLite takes to answer it.
 *
 * `build` must give the same query shape whatever the arguments: it receives stand-ins, not values, so it
 * may only pass them on as values (a query whose shape varies is one prepared query per shape). Any
 * other use of an argument (arithmetic, concatenation, leaving it out) is refused when first compiled.
 *
 * `shape` is the exception: a real value the query is compiled for, one compiled query per value. It is
 * for values SQLite's planner reads at prepare time, above all LIMIT: a bound LIMIT makes SQLite
 * (3.47+) re-prepare the statement on every run, which costs more than the query itself.
 */
export function preparedQuery<A extends object, R, S extends string | number = never>(
  build: (db: Db, args: A, shape: S) => Compilable<R>,
): (db: Db, args: A, ...shape: [S] extends [never] ? [] : [S]) => Promise<R[]> {
  const compile = (db: Db, shape: S): Probed<R, A> => {
    const probed = compileWithProbes('preparedQuery', db, build, shape);
    // A builder that branches on whether an argument is set (`a.status ? q.where(…) : q`) compiles one
    // shape for the probe and silently answers nothing when the argument is absent: compile it again
    // with every argument unset and refuse any difference.
    const unset = new Proxy({}, { get: () => undefined }) as A;
    let unsetSql: string;
    try {
      unsetSql = build(db, unset, shape).compile().sql;
    } catch (error) {
      throw new Error(`preparedQuery: the builder fails when an argument is unset (${String(error)}); pass arguments through as values only`);
    }
    if (unsetSql !== probed.compiled.sql) throw new Error('preparedQuery: the query changes shape when an argument is unset; make one prepared query per shape instead of branching on an argument');
    return probed;
  };
  const prepare = oncePerAdapter(compile);
  return async (db, args, ...rest) => {
    const prepared = prepare(db, rest[0] as S);
    const parameters = prepared.slots.map((s) => ('arg' in s ? args[s.arg] : s.value));
    return (await rerun<R>(db, prepared.compiled, parameters)).rows;
  };
}
