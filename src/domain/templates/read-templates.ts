import { findTemplate, findTemplates, listTemplateIds } from '../../db/repositories/templates.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import type { Json } from '../json.js';
import { listJson, resolveCursor, type ListInput, type ListView } from '../pagination.js';
import { presentTemplate, templateJson, type TemplateView } from './present-template.js';

/**
 * Templates never change after import, so their JSON is cached by id: a list reads only ids from the
 * index and fetches just the rows this process has not serialised yet. (An edit API must key the cache
 * by updated_at as well.)
 */
export async function listTemplates(deps: Pick<DomainDeps, 'db' | 'templateJsonCache'>, p: Partition, input: ListInput): Promise<Json<ListView<TemplateView>>> {
  const q = await resolveCursor(input, (id) => findTemplate(deps.db, p, id), 'template');
  const page = await listTemplateIds(deps.db, p, q);
  const cache = deps.templateJsonCache;
  const missing = page.rows.map((r) => r.id).filter((id) => cache.get(id) === undefined);
  for (const row of await findTemplates(deps.db, p, missing)) cache.set(row.id, templateJson(row).json);
  // A row deleted between the two reads is simply left out.
  const items = page.rows.map((r) => cache.get(r.id)).filter((j): j is string => j !== undefined);
  return listJson(items, page.hasMore);
}

export async function getTemplate(deps: Pick<DomainDeps, 'db'>, p: Partition, id: string): Promise<TemplateView> {
  const row = await findTemplate(deps.db, p, id);
  if (!row) throw notFound('template', id);
  return presentTemplate(row);
}
