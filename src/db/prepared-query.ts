import type { Compilable, CompiledQuery } from 'kysely';
import { oncePerAdapter, rerun } from './compile-once.js';
import type { Db } from './database.js';

// A stand-in value that cannot come from a caller: it marks where an argument lands among the parameters.
const PROBE = '\u0000formsign-argument:';

type Slot<A> = { arg: keyof A & string } | { value: unknown };

interface Prepared<R, A> {
  compiled: CompiledQuery<R>;
  slots: Slot<A>[];
}

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
  const compile = (db: Db, shape: S): Prepared<R, A> => {
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
      if (!v.startsWith(PROBE) || !read.has(arg)) throw new Error(`preparedQuery: a parameter was derived from an argument (${JSON.stringify(v.replaceAll(PROBE, '$'))}); pass arguments through unchanged`);
      used.add(arg);
      return { arg: arg as keyof A & string };
    });
    const unused = [...read].filter((a) => !used.has(a));
    if (unused.length > 0) throw new Error(`preparedQuery: argument(s) ${unused.join(', ')} shaped the query instead of being values in it`);
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
    if (unsetSql !== compiled.sql) throw new Error('preparedQuery: the query changes shape when an argument is unset; make one prepared query per shape instead of branching on an argument');
    return { compiled, slots };
  };
  const prepare = oncePerAdapter(compile);
  return async (db, args, ...rest) => {
    const prepared = prepare(db, rest[0] as S);
    const parameters = prepared.slots.map((s) => ('arg' in s ? args[s.arg] : s.value));
    return (await rerun<R>(db, prepared.compiled, parameters)).rows;
  };
}
