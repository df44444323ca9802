import { PostgresAdapter, sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from './handles.js';

/**
 * `column` is one of `ids`, for a batch of any size. On PostgreSQL `= any($1)` with one array
 * parameter: an IN list is a new statement text for every count, and each text run twice takes one of
 * the connection's named-statement slots (pg-named-statements.ts); the array also plans faster (the
 * publisher's 200 forms: 14 → 7 ms). SQLite has no arrays: an IN list.
 */
export function idAmong(db: Db, column: string, ids: readonly string[]): RawBuilder<SqlBool> {
  if (ids.length === 0) return sql<SqlBool>`false`;
  if (db.getExecutor().adapter instanceof PostgresAdapter) return sql<SqlBool>`${sql.ref(column)} = any(${[...ids]}::text[])`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join([...ids])})`;
}
