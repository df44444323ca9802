import { findTemplate, listTemplates as listRows } from '../../db/repositories/templates.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import type { Json } from '../json.js';
import { resolveCursor, toListJson, type ListInput, type ListView } from '../pagination.js';
import { presentTemplate, templateJson, type TemplateView } from './present-template.js';

export async function listTemplates(deps: Pick<DomainDeps, 'db'>, p: Partition, input: ListInput): Promise<Json<ListView<TemplateView>>> {
  const q = await resolveCursor(input, (id) => findTemplate(deps.db, p, id), 'template');
  return toListJson(await listRows(deps.db, p, q), templateJson);
}

export async function getTemplate(deps: Pick<DomainDeps, 'db'>, p: Partition, id: string): Promise<TemplateView> {
  const row = await findTemplate(deps.db, p, id);
  if (!row) throw notFound('template', id);
  return presentTemplate(row);
}
