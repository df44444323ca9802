import { findTemplate, listTemplates as listRows } from '../../db/repositories/templates.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import { resolveCursor, toListView, type ListInput, type ListView } from '../pagination.js';
import { presentTemplate, type TemplateView } from './present-template.js';

export async function listTemplates(deps: Pick<DomainDeps, 'db'>, p: Partition, input: ListInput): Promise<ListView<TemplateView>> {
  const q = await resolveCursor(input, (id) => findTemplate(deps.db, p, id), 'template');
  return toListView(await listRows(deps.db, p, q), presentTemplate);
}

export async function getTemplate(deps: Pick<DomainDeps, 'db'>, p: Partition, id: string): Promise<TemplateView> {
  const row = await findTemplate(deps.db, p, id);
  if (!row) throw notFound('template', id);
  return presentTemplate(row);
}
