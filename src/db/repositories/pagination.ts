import { sql } from 'kysely';

export interface PageQuery {
  limit: number;
  /** The row the page starts after; its (created_at, id) is the keyset cursor. */
  after?: { created_at: string; id: string } | undefined;
}

export interface Page<T> {
  rows: T[];
  hasMore: boolean;
}

/** Keyset condition for newest-first lists: strictly older, ties broken by id. */
export function olderThan(after: { created_at: string; id: string }) {
  return sql<boolean>`(created_at < ${after.created_at} or (created_at = ${after.created_at} and id < ${after.id}))`;
}

/** Lists fetch one row more than asked; its presence is `has_more`. */
export function toPage<T>(rows: T[], limit: number): Page<T> {
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}
