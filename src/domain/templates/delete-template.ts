import { lockTemplate, updateTemplateRow } from '../../db/repositories/templates.js';
import type { components } from '../../generated/api.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import { rememberTemplate } from './template-cache.js';

export type DeletedTemplateView = components['schemas']['DeletedTemplate'];

/**
 * Deletes a template for the API: it leaves the list, its id answers 404 and no new form can be made
 * from it. The row, its earlier versions and its PDF stay, because forms made from it still read their
 * fields from them and their PDF from its file (and the sealed audit trail names its SHA-256).
 */
export async function deleteTemplate(
  deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache'>,
  p: Partition,
  templateId: string,
): Promise<DeletedTemplateView> {
  const now = isoNow(deps.clock);
  const row = await deps.transact(async (trx) => {
    if (!(await lockTemplate(trx, p, templateId, now))) return undefined;
    return updateTemplateRow(trx, p, templateId, { deleted_at: now, updated_at: now });
  });
  if (!row) throw notFound('template', templateId);
  // This process sees the delete at once; other processes within TEMPLATE_FRESH_MS (template-cache.ts).
  rememberTemplate(deps, row, deps.clock.now().getTime());
  return { object: 'template', id: templateId, deleted: true };
}
