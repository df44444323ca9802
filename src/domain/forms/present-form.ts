import type { EventRow, FormRow } from '../../db/tables.js';
import type { components } from '../../generated/api.js';
import type { FieldValue } from '../../pdf/field.js';
import { json, str, type Json } from '../json.js';
import { fieldsWithValuesJson, type FieldSet } from '../templates/field-set.js';

export type FormView = components['schemas']['Form'];
export type EventView = components['schemas']['Event'];

/**
 * The Form object as JSON text, built by splicing: the field definitions are prepared once per
 * template and `metadata` is JSON we stored ourselves. `values` may be given when the caller already
 * has them parsed (the create path), sparing a parse of `f.values`.
 */
export function formJson(f: FormRow, fields: FieldSet, values?: Readonly<Record<string, FieldValue>>): Json<FormView> {
  const v = values ?? (JSON.parse(f.values) as Record<string, FieldValue>);
  return json(
    `{"object":"form","id":${str(f.id)},"mode":${str(f.mode)},"status":${str(f.status)},"name":${str(f.name)},` +
      `"template_id":${str(f.template_id)},"fields":${fieldsWithValuesJson(fields, v)},"recipients":[],` +
      `"created_at":${str(f.created_at)},"sent_at":${str(f.sent_at)},"completed_at":${str(f.completed_at)},` +
      `"expires_at":${str(f.expires_at)},"metadata":${f.metadata}}`,
  );
}

/**
 * The Event object, which is also the webhook body: the form as it was (the event's snapshot of the
 * row) with the form's field definitions, which never change.
 */
export function eventJson(e: EventRow, fields: FieldSet): Json<EventView> {
  const form = formJson({ ...(JSON.parse(e.form) as Omit<FormRow, 'fields'>), fields: null }, fields);
  return json(`{"object":"event","id":${str(e.id)},"type":${str(e.type)},"created_at":${str(e.created_at)},"mode":${str(e.mode)},"data":{"object":${form.json}}}`);
}
