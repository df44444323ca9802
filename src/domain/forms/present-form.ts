import type { EventRow, FormRow } from '../../db/tables.js';
import type { components } from '../../generated/api.js';
import type { FieldValue } from '../../pdf/field.js';
import { json, str, type Json } from '../json.js';
import { encodeValues, fieldsWithValuesJson, type EncodedValues, type FieldSet } from '../templates/field-set.js';

export type FormView = components['schemas']['Form'];
export type EventView = components['schemas']['Event'];

/** What the Form object shows of a form besides its fields, values and metadata. */
export type FormHead = Pick<FormRow, 'id' | 'mode' | 'status' | 'name' | 'template_id' | 'created_at' | 'sent_at' | 'completed_at' | 'expires_at'>;

/**
 * The Form object as JSON text, built by splicing: the field definitions are prepared once per
 * template, and `metadataJson` is JSON we stored ourselves.
 */
export function formJson(f: FormHead, fields: FieldSet, values: EncodedValues, metadataJson: string): Json<FormView> {
  return json(
    `{"object":"form","id":${str(f.id)},"mode":${str(f.mode)},"status":${str(f.status)},"name":${str(f.name)},` +
      `"template_id":${str(f.template_id)},"fields":${fieldsWithValuesJson(fields, values)},"recipients":[],` +
      `"created_at":${str(f.created_at)},"sent_at":${str(f.sent_at)},"completed_at":${str(f.completed_at)},` +
      `"expires_at":${str(f.expires_at)},"metadata":${metadataJson}}`,
  );
}

export function formRowJson(f: FormRow, fields: FieldSet): Json<FormView> {
  return formJson(f, fields, encodeValues(JSON.parse(f.values) as Record<string, FieldValue>), f.metadata);
}

interface FormSnapshot extends FormHead {
  values: Record<string, FieldValue>;
  metadata: Record<string, string>;
}

/**
 * An event's copy of its form as it is now: the head, values and metadata (the stored JSON columns
 * spliced in, not re-escaped). With the form's field definitions, which never change, it renders
 * the Form object exactly as it was.
 */
export function formSnapshot(f: FormRow): string {
  return (
    `{"id":${str(f.id)},"mode":${str(f.mode)},"status":${str(f.status)},"name":${str(f.name)},"template_id":${str(f.template_id)},` +
    `"created_at":${str(f.created_at)},"sent_at":${str(f.sent_at)},"completed_at":${str(f.completed_at)},"expires_at":${str(f.expires_at)},` +
    `"values":${f.values},"metadata":${f.metadata}}`
  );
}

/** The Event object, which is also the webhook body, from the event row and its form's fields. */
export function eventJson(e: EventRow, fields: FieldSet): Json<EventView> {
  const s = JSON.parse(e.form) as FormSnapshot;
  const form = formJson(s, fields, encodeValues(s.values), JSON.stringify(s.metadata));
  return json(`{"object":"event","id":${str(e.id)},"type":${str(e.type)},"created_at":${str(e.created_at)},"mode":${str(e.mode)},"data":{"object":${form.json}}}`);
}
