import { findEvent, listFormEvents as listEventRows } from '../../db/repositories/events.js';
import { findForm, listForms as listRows, searchFormsByName } from '../../db/repositories/forms.js';
import { listRecipientsOfForm, listRecipientsOfForms } from '../../db/repositories/recipients.js';
import type { FormRow, RecipientRow } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import type { Json } from '../json.js';
import { listJson, resolveCursor, type ListInput, type ListView } from '../pagination.js';
import { fieldSet, type FieldSet } from '../templates/field-set.js';
import { loadTemplateVersion, loadTemplateVersions, versionKey } from '../templates/template-cache.js';
import { eventJson, formJson, formState, type EventView, type FormState, type FormView } from './present-form.js';

type ReadDeps = Pick<DomainDeps, 'db' | 'templateCache' | 'links'>;

/** `name` (the dashboard's search, issue 24): only forms whose name contains it. */
export async function listForms(deps: ReadDeps, p: Partition, input: ListInput & { status?: FormRow['status'] | undefined; name?: string | undefined }): Promise<Json<ListView<FormView>>> {
  const q = await resolveCursor(input, (id) => findForm(deps.db, p, id), 'form');
  const page = input.name ? await searchFormsByName(deps.db, p, { ...q, status: input.status, name: input.name }) : await listRows(deps.db, p, { ...q, status: input.status });
  const templates = await loadTemplateVersions(deps, p, page.rows.flatMap((r) => (usesTemplateFields(r) ? [templateRef(r)] : [])));
  const recipients = groupByForm(await listRecipientsOfForms(deps.db, p, page.rows.filter(mayHaveRecipients).map((r) => r.id)));
  const items = page.rows.map((r) => {
    const ref = usesTemplateFields(r) ? templateRef(r) : undefined;
    const fields = ref && templates.get(versionKey(ref.id, ref.version));
    return formJson(formState(r, recipients.get(r.id) ?? []), fieldsOf(r, fields), deps.links).json;
  });
  return listJson(items, page.hasMore);
}

/** A draft has never been sent, so it has no recipients: the common list of drafts costs no extra query. */
function mayHaveRecipients(row: FormRow): boolean {
  return row.status !== 'draft';
}

function groupByForm(rows: RecipientRow[]): Map<string, RecipientRow[]> {
  const byForm = new Map<string, RecipientRow[]>();
  for (const r of rows) {
    const list = byForm.get(r.form_id);
    if (list) list.push(r);
    else byForm.set(r.form_id, [r]);
  }
  return byForm;
}

export async function loadForm(deps: Pick<DomainDeps, 'db'>, p: Partition, id: string): Promise<FormRow> {
  const row = await findForm(deps.db, p, id);
  if (!row) throw notFound('form', id);
  return row;
}

/** The form's state as the presenter takes it: its row and, once sent, its recipients. */
export async function loadFormState(deps: Pick<DomainDeps, 'db'>, p: Partition, row: FormRow): Promise<FormState> {
  return formState(row, mayHaveRecipients(row) ? await listRecipientsOfForm(deps.db, p, row.id) : []);
}

function usesTemplateFields(row: FormRow): row is FormRow & { fields: null; template_id: string } {
  return row.fields === null && row.template_id !== null;
}

/** The template version a form was made from: forms made before versions existed (0009) have version 1. */
function templateRef(row: FormRow & { template_id: string }): { id: string; version: number } {
  return { id: row.template_id, version: row.template_version ?? 1 };
}

/**
 * The form's field definitions: its own, or (the usual case) those of the template version it was made
 * from, prepared once. An edit makes a new version and a delete keeps the row, so neither changes what
 * an existing form reads, renders, sends or seals.
 */
function fieldsOf(row: FormRow, templateFields: FieldSet | undefined): FieldSet {
  if (row.fields !== null) return fieldSet(row.fields);
  // Template rows and their versions are never removed; a miss is a broken store, not a user error.
  if (!templateFields) throw new Error(`form ${row.id} refers to template ${String(row.template_id)} version ${String(row.template_version ?? 1)}, which is missing`);
  return templateFields;
}

export async function formFields(deps: Pick<DomainDeps, 'db' | 'templateCache'>, p: Partition, row: FormRow): Promise<FieldSet> {
  if (!usesTemplateFields(row)) return fieldsOf(row, undefined);
  const ref = templateRef(row);
  return fieldsOf(row, await loadTemplateVersion(deps, p, ref.id, ref.version));
}

export async function getForm(deps: ReadDeps, p: Partition, id: string): Promise<Json<FormView>> {
  const row = await loadForm(deps, p, id);
  return formJson(await loadFormState(deps, p, row), await formFields(deps, p, row), deps.links);
}

export async function listFormEvents(deps: ReadDeps, p: Partition, formId: string, input: ListInput): Promise<Json<ListView<EventView>>> {
  const form = await loadForm(deps, p, formId);
  const q = await resolveCursor(input, (id) => findEvent(deps.db, p, form, id), 'event');
  const page = await listEventRows(deps.db, p, form, q);
  const fields = await formFields(deps, p, form);
  return listJson(page.rows.map((e) => eventJson(e, fields, deps.links).json), page.hasMore);
}
