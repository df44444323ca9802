import type { EventRow, FormRow } from '../../db/tables.js';
import type { components } from '../../generated/api.js';
import type { FieldDef, FieldValue } from '../../pdf/field.js';

export type FormView = components['schemas']['Form'];
export type EventView = components['schemas']['Event'];

export function presentForm(f: FormRow): FormView {
  const values = JSON.parse(f.values) as Record<string, FieldValue>;
  return {
    object: 'form',
    id: f.id,
    mode: f.mode,
    status: f.status,
    name: f.name,
    template_id: f.template_id,
    fields: (JSON.parse(f.fields) as FieldDef[]).map((d) => ({ ...d, value: values[d.name] ?? null })),
    recipients: [],
    created_at: f.created_at,
    sent_at: f.sent_at,
    completed_at: f.completed_at,
    expires_at: f.expires_at,
    metadata: JSON.parse(f.metadata) as Record<string, string>,
  };
}

/** Events store their delivered body, so the audit log and webhooks show the same snapshot. */
export function presentEvent(e: EventRow): EventView {
  return JSON.parse(e.data) as EventView;
}
