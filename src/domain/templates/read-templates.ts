import { findTemplate, listTemplateIds } from '../../db/repositories/templates.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import { json, type Json } from '../json.js';
import { listJson, resolveCursor, type ListInput, type ListView } from '../pagination.js';
import type { TemplateView } from './present-template.js';
import { loadTemplate, loadTemplates } from './template-cache.js';

/**
 * A list reads only ids from the index and takes each template's JSON from the template cache, which
 * fetches just the rows this process has not prepared yet.
 */
export async function listTemplates(deps: Pick<DomainDeps, 'db' | 'templateCache' | 'clock'>, p: Partition, input: ListInput): Promise<Json<ListView<TemplateView>>> {
  const q = await resolveCursor(input, (id) => findTemplate(deps.db, p, id), 'template');
  const page = await listTemplateIds(deps.db, p, q);
  const templates = await loadTemplates(deps, p, page.rows.map((r) => r.id));
  // A row deleted between the two reads is simply left out.
  const items = page.rows.flatMap((r) => templates.get(r.id)?.json ?? []);
  return listJson(items, page.hasMore);
}

export async function getTemplate(deps: Pick<DomainDeps, 'db' | 'templateCache' | 'clock'>, p: Partition, id: string): Promise<Json<TemplateView>> {
  const t = await loadTemplate(deps, p, id);
  if (!t) throw notFound('template', id);
  return json(t.json);
}
