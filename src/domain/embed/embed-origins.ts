import { addEmbedOrigin, countEmbedOrigins, listEmbedOrigins, removeEmbedOrigin } from '../../db/repositories/embed-origins.js';
import type { EmbedOriginRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { commit, type PreparedWrite } from '../prepared-write.js';
import { canonicalOrigin, MAX_EMBED_ORIGINS } from './origin-rule.js';

// Embedded signing (issue 26): the origins a partition lets frame its signing pages. Free on every
// plan. The signing page reads them (allowedFrameOrigins) for its frame-ancestors and its messages.

export interface EmbedOriginView {
  object: 'embed_origin';
  origin: string;
  mode: Partition['mode'];
  created_at: string;
}

const view = (r: EmbedOriginRow): EmbedOriginView => ({ object: 'embed_origin', origin: r.origin, mode: r.mode, created_at: r.created_at });

export async function listOrigins(deps: Pick<DomainDeps, 'db'>, p: Partition): Promise<{ object: 'list'; data: EmbedOriginView[]; has_more: false }> {
  return { object: 'list', data: (await listEmbedOrigins(deps.db, p)).map(view), has_more: false };
}

export async function addOrigin(deps: Pick<DomainDeps, 'transact' | 'clock'>, p: Partition, input: string): Promise<{ origin: EmbedOriginView; created: boolean }> {
  return commit(deps, prepareAddOrigin(deps, p, input));
}

/** addOrigin's check of the origin; the write it prepares adds it (once) within the partition's bound. */
export async function prepareAddOrigin(deps: Pick<DomainDeps, 'clock'>, p: Partition, input: string): Promise<PreparedWrite<{ origin: EmbedOriginView; created: boolean }>> {
  const origin = canonicalOrigin(input);
  const now = isoNow(deps.clock);
  return async (trx) => {
    const added = await addEmbedOrigin(trx, p, origin, now);
    if (added.created && (await countEmbedOrigins(trx, p)) > MAX_EMBED_ORIGINS) {
      throw new AppError('parameter_invalid', `An account allows at most ${MAX_EMBED_ORIGINS} origins per mode; remove one first.`, 'origin');
    }
    return { origin: view(added.row), created: added.created };
  };
}

export async function removeOrigin(deps: Pick<DomainDeps, 'transact'>, p: Partition, input: string): Promise<{ object: 'embed_origin'; origin: string; deleted: true }> {
  const origin = canonicalOrigin(input);
  const removed = await deps.transact((trx) => removeEmbedOrigin(trx, p, origin));
  if (!removed) throw new AppError('resource_not_found', `The origin ${origin} is not in this account's allowed origins.`, 'origin');
  return { object: 'embed_origin', origin, deleted: true };
}

/** The origins a signing page of this partition may be framed by and may post its messages to. */
export async function allowedFrameOrigins(deps: Pick<DomainDeps, 'db'>, p: Partition): Promise<string[]> {
  return (await listEmbedOrigins(deps.db, p)).map((r) => r.origin);
}
