import type { ColumnType, CompiledQuery, Insertable, RawBuilder } from 'kysely';
import { oncePerAdapter, rerun } from './compile-once.js';
import { directRunnerOf } from './group-commit.js';
import type { Db, Trx } from './handles.js';
import type { Database } from './tables.js';

/** Columns a row must name: all but those the database generates (defaults). */
type WrittenColumns<R> = { [K in keyof R]-?: R[K] extends ColumnType<unknown, infer I, unknown> ? (undefined extends I ? never : K) : K }[keyof R] & string;

/** The column list, refused by the compiler when it leaves out a written column. */
type Columns<T extends keyof Database, C extends string> = readonly C[] &
  ([Exclude<WrittenColumns<Database[T]>, C>] extends [never] ? unknown : { missingColumns: Exclude<WrittenColumns<Database[T]>, C> });

/**
 * An insert compiled once (per dialect) and run with new parameters (compile-once.ts): hot write paths
 * insert the same shape every time. The SQL still comes from Kysely's compiler, so quoting and
 * placeholders are the dialect's. `computed` gives, per dialect, columns the statement computes itself
 * (SQL without parameters, e.g. a subquery), for values only the database can know at that moment.
 */
export function preparedInsert<T extends keyof Database, C extends keyof Insertable<Database[T]> & string>(
  table: T,
  columns: Columns<T, C>,
  computed?: (db: Db) => Record<string, RawBuilder<unknown>>,
): (trx: Trx, row: Insertable<Database[T]>) => Promise<void> {
  const compiledFor = oncePerAdapter((db: Db): CompiledQuery => {
    // Each column gets its own index as a stand-in value, which proves the parameter order below.
    const probe = { ...Object.fromEntries(columns.map((c, i) => [c, i])), ...computed?.(db) } as unknown as Insertable<Database[T]>;
    const compiled = db.insertInto(table).values(probe).compile();
    if (compiled.parameters.some((v, i) => v !== i)) throw new Error(`preparedInsert(${table}): unexpected parameter order`);
    return compiled;
  });
  return async (trx, row) => {
    const compiled = compiledFor(trx, undefined);
    const values = row as Record<string, unknown>;
    const parameters = columns.map((c) => values[c] ?? null);
    const direct = directRunnerOf(trx);
    if (direct) return direct(compiled.sql, parameters);
    await rerun(trx, compiled, parameters);
  };
}
