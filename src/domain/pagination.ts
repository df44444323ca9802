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
  if (!after) {
    throw new AppError('parameter_invalid', `starting_after must be the id of a ${kind} in this list; '${input.starting_after}' is not.`, 'starting_after');
  }
  return { limit, after: { created_at: after.created_at, id: after.id } };
}

/** The list envelope around items that are already JSON text. */
export function listJson<T>(items: string[], hasMore: boolean): Json<ListView<T>> {
  return json(`{"object":"list","data":[${items.join(',')}],"has_more":${hasMore}}`);
}
