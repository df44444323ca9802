import { findEvent, listFormEvents as listEventRows } from '../../db/repositories/events.js';
import { findForm, listForms as listRows } from '../../db/repositories/forms.js';
import type { FormRow } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import type { Json } from '../json.js';
import { listJson, resolveCursor, type ListInput, type ListView } from '../pagination.js';
import { fieldSet, type FieldSet } from '../templates/field-set.js';
import { loadTemplate, loadTemplates, type CachedTemplate } from '../templates/template-cache.js';
import { eventJson, formRowJson, type EventView, type FormView } from './present-form.js';

type ReadDeps = Pick<DomainDeps, 'db' | 'templateCache'>;

export async function listForms(deps: ReadDeps, p: Partition, input: ListInput & { status?: FormRow['status'] | undefined }): Promise<Json<ListView<FormView>>> {
  const q = await resolveCursor(input, (id) => findForm(deps.db, p, id), 'form');
  const page = await listRows(deps.db, p, { ...q, status: input.status });
  const templates = await loadTemplates(deps, p, page.rows.flatMap((r) => (usesTemplateFields(r) ? [r.template_id] : [])));
  const items = page.rows.map((r) => formRowJson(r, fieldsOf(r, templates.get(r.template_id ?? ''))).json);
  return listJson(items, page.hasMore);
}

export async function loadForm(deps: Pick<DomainDeps, 'db'>, p: Partition, id: string): Promise<FormRow> {
  const row = await findForm(deps.db, p, id);
  if (!row) throw notFound('form', id);
  return row;
}

function usesTemplateFields(row: FormRow): row is FormRow & { fields: null; template_id: string } {
  return row.fields === null && row.template_id !== null;
}

/** The form's field definitions: its own, or (the usual case) its template's, prepared once. */
function fieldsOf(row: FormRow, template: CachedTemplate | undefined): FieldSet {
  if (row.fields !== null) return fieldSet(row.fields);
  // Templates are never deleted while forms refer to them; a miss is a broken store, not a user error.
  if (!template) throw new Error(`form ${row.id} refers to template ${String(row.template_id)}, which is missing`);
  return template.fields;
}

export async function formFields(deps: ReadDeps, p: Partition, row: FormRow): Promise<FieldSet> {
  return fieldsOf(row, usesTemplateFields(row) ? await loadTemplate(deps, p, row.template_id) : undefined);
}

export async function getForm(deps: ReadDeps, p: Partition, id: string): Promise<Json<FormView>> {
  const row = await loadForm(deps, p, id);
  return formRowJson(row, await formFields(deps, p, row));
}

export async function listFormEvents(deps: ReadDeps, p: Partition, formId: string, input: ListInput): Promise<Json<ListView<EventView>>> {
  const form = await loadForm(deps, p, formId);
  const q = await resolveCursor(input, (id) => findEvent(deps.db, p, form, id), 'event');
  const page = await listEventRows(deps.db, p, form, q);
  const fields = await formFields(deps, p, form);
  return listJson(page.rows.map((e) => eventJson(e, fields).json), page.hasMore);
}
