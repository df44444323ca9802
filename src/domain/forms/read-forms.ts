import { findEvent, listFormEvents as listEventRows } from '../../db/repositories/events.js';
import { findForm, listForms as listRows } from '../../db/repositories/forms.js';
import type { FormRow } from '../../db/tables.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import { resolveCursor, toListView, type ListInput, type ListView } from '../pagination.js';
import { presentEvent, presentForm, type EventView, type FormView } from './present-form.js';

export async function listForms(deps: Pick<DomainDeps, 'db'>, p: Partition, input: ListInput & { status?: FormRow['status'] | undefined }): Promise<ListView<FormView>> {
  const q = await resolveCursor(input, (id) => findForm(deps.db, p, id), 'form');
  return toListView(await listRows(deps.db, p, { ...q, status: input.status }), presentForm);
}

export async function loadForm(deps: Pick<DomainDeps, 'db'>, p: Partition, id: string): Promise<FormRow> {
  const row = await findForm(deps.db, p, id);
  if (!row) throw notFound('form', id);
  return row;
}

export async function getForm(deps: Pick<DomainDeps, 'db'>, p: Partition, id: string): Promise<FormView> {
  return presentForm(await loadForm(deps, p, id));
}

export async function listFormEvents(deps: Pick<DomainDeps, 'db'>, p: Partition, formId: string, input: ListInput): Promise<ListView<EventView>> {
  await loadForm(deps, p, formId);
  const q = await resolveCursor(input, async (id) => {
    const e = await findEvent(deps.db, p, id);
    return e && e.form_id === formId ? e : undefined;
  }, 'event');
  return toListView(await listEventRows(deps.db, p, formId, q), presentEvent);
}
