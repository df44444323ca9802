import type { PageQuery } from '../db/repositories/pagination.js';
import { AppError } from './errors.js';
import { json, type Json } from './json.js';

export interface ListInput {
  limit?: number | undefined;
  starting_after?: string | undefined;
}

export interface ListView<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

/**
 * Turns `starting_after` into a keyset cursor. An id that is not in this partition's list is refused
 * the same way whether it exists elsewhere or not, so the answer reveals nothing about other partitions.
 */
export async function resolveCursor(
  input: ListInput,
  find: (id: string) => Promise<{ created_at: string; id: string } | undefined>,
  kind: string,
): Promise<PageQuery> {
  const limit = input.limit ?? 20;
  if (!input.starting_after) return { limit };
  const after = await find(input.starting_after);
  if (!after) throw cursorRefused('starting_after', kind, input.starting_after);
  return { limit, after: { created_at: after.created_at, id: after.id } };
}

/** A cursor that names no item of this partition's list. */
export function cursorRefused(param: string, kind: string, id: string): AppError {
  return new AppError('parameter_invalid', `${param} must be the id of a ${kind} in this list; '${id}' is not.`, param);
}

/** The list envelope around items that are already JSON text. */
export function listJson<T>(items: string[], hasMore: boolean): Json<ListView<T>> {
  return json(`{"object":"list","data":[${items.join(',')}],"has_more":${hasMore}}`);
}
