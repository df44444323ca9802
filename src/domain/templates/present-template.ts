import type { TemplateRow } from '../../db/tables.js';
import type { components } from '../../generated/api.js';
import type { FieldDef } from '../../pdf/field.js';

export type TemplateView = components['schemas']['Template'];

export function presentTemplate(t: TemplateRow): TemplateView {
  return {
    object: 'template',
    id: t.id,
    name: t.name,
    mode: t.mode,
    page_count: t.page_count,
    fields: JSON.parse(t.fields) as FieldDef[],
    signer_count: t.signer_count,
    warnings: JSON.parse(t.warnings) as string[],
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}
