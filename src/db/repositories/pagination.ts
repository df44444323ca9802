import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../handles.js';
import { preparedQuery } from '../prepared-query.js';
import type { Database } from '../tables.js';

export interface PageQuery {
  limit: number;
  /** The row the page starts after; its (created_at, id) is the keyset cursor. */
  after?: Cursor | undefined;
}

export interface Cursor {
  created_at: string;
  id: string;
}

export interface Page<T> {
  rows: T[];
  hasMore: boolean;
}

/** Keyset condition for newest-first lists: strictly older, ties broken by id. */
export function olderThan(after: Cursor) {
  return sql<boolean>`(created_at < ${after.created_at} or (created_at = ${after.created_at} and id < ${after.id}))`;
}

/** Lists fetch one row more than asked; its presence is `has_more`. */
export function toPage<T>(rows: T[], limit: number): Page<T> {
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

/**
 * A page size as a literal, not a bound parameter: SQLite re-prepares a statement whose LIMIT is bound
 * each time it runs. Page sizes are few (the API allows 1–100), so each gets its own cached statement.
 */
export function limitLiteral(n: number) {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`limitLiteral: ${n} is not a row count`);
  return sql.lit(n);
}

interface AfterArgs {
  cursorCreatedAt: string;
  cursorId: string;
}

/** The tables listed newest first, by `(created_at, id)` under an index that ends with those two. */
type Listed = 'templates' | 'forms' | 'events' | 'bulk_sends';

/**
 * A newest-first keyset list over `rows` (which must give the same query shape whatever its arguments),
 * prepared in two shapes, the first page and the page after a cursor, each compiled once per page size.
 */
export function preparedPage<A extends object, T extends Listed, R>(
  rows: (db: Db, args: A) => SelectQueryBuilder<Database, T, R>,
): (db: Db, args: A, q: PageQuery) => Promise<Page<R>> {
  const newestFirst = (query: SelectQueryBuilder<Database, T, R>, limit: number) =>
    query.orderBy(sql.ref('created_at'), 'desc').orderBy(sql.ref('id'), 'desc').limit(limitLiteral(limit));
  const first = preparedQuery((db, a: A, limit: number) => newestFirst(rows(db, a), limit));
  const later = preparedQuery((db, a: A & AfterArgs, limit: number) =>
    newestFirst(rows(db, a).where(olderThan({ created_at: a.cursorCreatedAt, id: a.cursorId })), limit),
  );
  return async (db, args, q) => {
    const found = q.after
      ? await later(db, { ...args, cursorCreatedAt: q.after.created_at, cursorId: q.after.id }, q.limit + 1)
      : await first(db, args, q.limit + 1);
    return toPage(found, q.limit);
  };
}
