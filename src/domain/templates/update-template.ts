import { findTemplate, insertTemplateVersion, lockTemplate, updateTemplateRow, type TemplatePatch } from '../../db/repositories/templates.js';
import type { Trx } from '../../db/handles.js';
import type { TemplateRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import type { Partition } from '../../lib/partition.js';
import type { FieldDef } from '../../pdf/index.js';
import type { DomainDeps } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { parseFieldDefs, signerCount } from './field-rules.js';
import { presentTemplate, type TemplateView } from './present-template.js';
import { parseSignerRoles } from './signer-roles.js';
import { rememberTemplate } from './template-cache.js';
import { editedWarnings } from './template-warnings.js';
import { checkTemplateName } from './upload-input.js';

/**
 * What may change: `name`, `fields` (the whole new list, as JSON values in the import's field
 * model; checked here by the import's rules, so callers that skip the HTTP schema, such as the
 * dashboard, get the same answers) and `signers` (the named slots, the whole new list).
 */
export interface TemplateEdit {
  name?: string | undefined;
  fields?: unknown;
  signers?: unknown;
}

const EDITABLE = new Set(['name', 'fields', 'signers']);

/**
 * Renames a template, names its signer slots or replaces its fields. New fields make a new version: the outgoing fields are
 * kept in template_versions, in the same transaction, so a form made from any earlier version keeps
 * reading (rendering, sending, sealing) exactly the fields it was made with. The PDF never changes.
 */
export async function updateTemplate(
  deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache'>,
  p: Partition,
  templateId: string,
  patch: TemplateEdit,
): Promise<TemplateView> {
  // Callers other than the HTTP schema (the dashboard) may hand over any JSON.
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw new AppError('parameter_invalid', 'The request body must be a JSON object.');
  for (const key of Object.keys(patch)) {
    if (!EDITABLE.has(key)) throw new AppError('parameter_unknown', `Received unknown parameter '${key}'.`, key);
  }
  const name = patch.name === undefined ? undefined : checkTemplateName(patch.name);
  const before = await findTemplate(deps.db, p, templateId);
  if (!before || before.deleted_at !== null) throw notFound('template', templateId);
  // The page count never changes, so the fields are checked before the transaction, not inside it.
  const defs = patch.fields === undefined ? undefined : parseFieldDefs(patch.fields, before.page_count);
  // Names are not part of a version: forms read their fields, never the template's role names.
  const roles = patch.signers === undefined ? undefined : JSON.stringify(parseSignerRoles(patch.signers));
  if (name === undefined && defs === undefined && roles === undefined) return presentTemplate(before);
  const now = isoNow(deps.clock);
  const row = await deps.transact(async (trx) => {
    const current = await lockTemplate(trx, p, templateId, now);
    if (!current) return undefined;
    const change: TemplatePatch = { updated_at: now };
    if (name !== undefined) change.name = name;
    if (roles !== undefined) change.signers = roles;
    if (defs !== undefined) await replaceFields(trx, p, current, defs, change);
    return updateTemplateRow(trx, p, templateId, change);
  });
  if (!row) throw notFound('template', templateId);
  // This process sees its own edit at once; other processes within TEMPLATE_FRESH_MS (template-cache.ts).
  rememberTemplate(deps, row, deps.clock.now().getTime());
  return presentTemplate(row);
}

/**
 * Adds to `change` a new version with `defs` as the fields, keeping the outgoing fields in
 * template_versions (inside the caller's transaction, the row locked); identical fields change nothing.
 */
export async function replaceFields(trx: Trx, p: Partition, current: TemplateRow, defs: FieldDef[], change: TemplatePatch): Promise<void> {
  const fields = JSON.stringify(defs);
  if (fields === current.fields) return;
  await insertTemplateVersion(trx, p, { template_id: current.id, version: current.version, fields: current.fields, created_at: change.updated_at });
  change.fields = fields;
  change.signer_count = signerCount(defs);
  change.warnings = JSON.stringify(editedWarnings(JSON.parse(current.warnings) as string[], defs));
  change.version = current.version + 1;
}
