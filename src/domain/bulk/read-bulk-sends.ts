import { findBulkSend, listBulkRows, pageBulkSends } from '../../db/repositories/bulk-sends.js';
import type { BulkRowStatus } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import { resolveCursor, type ListInput, type ListView } from '../pagination.js';
import { bulkRowView, bulkSendView, type BulkSendRowView, type BulkSendView } from './present-bulk-send.js';

type ReadDeps = Pick<DomainDeps, 'db'>;

/** `GET /bulk-sends`: the partition's bulk sends, newest first (without row errors: those are the rows' own). */
export async function listBulkSends(deps: ReadDeps, p: Partition, input: ListInput): Promise<ListView<BulkSendView>> {
  const q = await resolveCursor(input, (id) => findBulkSend(deps.db, p, id), 'bulk send');
  const page = await pageBulkSends(deps.db, p, q);
  return { object: 'list', data: page.rows.map((b) => bulkSendView(b)), has_more: page.hasMore };
}

export async function getBulkSend(deps: ReadDeps, p: Partition, id: string): Promise<BulkSendView> {
  const bulk = await findBulkSend(deps.db, p, id);
  if (!bulk) throw notFound('bulk send', id);
  return bulkSendView(bulk);
}

export interface BulkRowListInput {
  limit?: number | undefined;
  /** A row number: the page starts after it (rows are listed in their order, 1 first). */
  starting_after?: number | undefined;
  status?: BulkRowStatus | undefined;
}

/** A bulk send's rows in their order, each with its form or its error; paged by row number. */
export async function listBulkSendRows(deps: ReadDeps, p: Partition, id: string, input: BulkRowListInput): Promise<ListView<BulkSendRowView>> {
  const bulk = await findBulkSend(deps.db, p, id);
  if (!bulk) throw notFound('bulk send', id);
  const limit = input.limit ?? 20;
  const rows = await listBulkRows(deps.db, p, bulk.id, { afterRow: input.starting_after ?? 0, limit: limit + 1, ...(input.status ? { status: input.status } : {}) });
  return { object: 'list', data: rows.slice(0, limit).map(bulkRowView), has_more: rows.length > limit };
}
