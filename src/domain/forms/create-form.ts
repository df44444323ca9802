import { insertForm } from '../../db/repositories/forms.js';
import type { FormRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { commit, type PreparedWrite } from '../prepared-write.js';
import { notFound } from '../errors.js';
import { recordFormEvent } from './record-event.js';
import type { Json } from '../json.js';
import type { FieldValue } from '../../pdf/index.js';
import { encodeValues, type FieldSet } from '../templates/field-set.js';
import { loadTemplate } from '../templates/template-cache.js';
import { checkPrefill } from './prefill-rules.js';
import { formJson, formState, type FormView } from './present-form.js';

export interface CreateFormInput {
  template_id: string;
  prefill?: Record<string, unknown> | undefined;
  name?: string | undefined;
  expires_in_days?: number | undefined;
  metadata?: Record<string, string> | undefined;
}

/**
 * Creates a draft form. No PDF work happens here: the filled document is rendered lazily on first read.
 * The template comes from the template cache and the form keeps a reference to its fields rather than
 * a copy, so the hot path is one group-committed transaction of three small rows.
 */
export async function createForm(
  deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'links'>,
  p: Partition,
  input: CreateFormInput,
): Promise<{ form: Json<FormView>; unmatched: string[] }> {
  return commit(deps, prepareCreateForm(deps, p, input));
}

/** createForm's reads and checks; the write it prepares returns the form and the unmatched prefill keys. */
export async function prepareCreateForm(
  deps: Pick<DomainDeps, 'db' | 'clock' | 'templateCache' | 'links'>,
  p: Partition,
  input: CreateFormInput,
): Promise<PreparedWrite<{ form: Json<FormView>; unmatched: string[] }>> {
  const template = await loadTemplate(deps, p, input.template_id);
  if (!template) throw notFound('template', input.template_id, 'template_id');
  const { values, unmatched } = checkPrefill(template.fields, input.prefill ?? {});
  const write = prepareDraftForm(deps, p, {
    id: newId('form'),
    name: input.name ?? template.name,
    template_id: template.id,
    // The version whose fields were checked above: a later edit makes a new version and leaves this one.
    template_version: template.version,
    fields: template.fields,
    ownFields: false,
    pdf_key: template.pdfKey,
    values,
    metadata: input.metadata,
    expires_in_days: input.expires_in_days,
  });
  return async (trx) => ({ form: await write(trx), unmatched });
}

/** What a new draft form is made of, whether its fields are a template version's or its own. */
export interface DraftForm {
  id: string;
  name: string;
  template_id: string | null;
  template_version: number | null;
  fields: FieldSet;
  /** Its own field definitions (a generated form) are stored on the row; a template's are referred to. */
  ownFields: boolean;
  pdf_key: string;
  values: Record<string, FieldValue>;
  metadata?: Record<string, string> | undefined;
  expires_in_days?: number | undefined;
}

/**
 * Writes a draft form and its `form.created` event in one transaction and returns its JSON, built
 * before the commit: nothing that can fail happens after a write the client is not told of.
 */
export async function insertDraftForm(deps: Pick<DomainDeps, 'transact' | 'clock' | 'links'>, p: Partition, d: DraftForm): Promise<Json<FormView>> {
  return deps.transact(prepareDraftForm(deps, p, d));
}

/** The write of a draft form and its `form.created` event, returning the form's JSON (built before it). */
export function prepareDraftForm(deps: Pick<DomainDeps, 'clock' | 'links'>, p: Partition, d: DraftForm): PreparedWrite<Json<FormView>> {
  const now = isoNow(deps.clock);
  const encoded = encodeValues(d.values);
  const row: FormRow = {
    id: d.id,
    account_id: p.accountId,
    mode: p.mode,
    status: 'draft',
    name: d.name,
    template_id: d.template_id,
    template_version: d.template_version,
    fields: d.ownFields ? d.fields.json : null,
    values: encoded.json,
    metadata: JSON.stringify(d.metadata ?? {}),
    pdf_key: d.pdf_key,
    expires_in_days: d.expires_in_days ?? 30,
    created_at: now,
    updated_at: now,
    sent_at: null,
    completed_at: null,
    expires_at: null,
    // Sealing (issue 25): the columns' defaults, for the presenter; the insert leaves them out.
    sealing_status: null,
    sealing_attempts: 0,
    sealing_error: null,
    sealing_next_at: null,
    completed_copy: 1,
    // Fixed by the first send (send-form.ts).
    signing_order: null,
    reminder_every_days: null,
    reminder_max: null,
    voided_at: null,
    void_reason: null,
    // Issue 40: set only when the form is deleted.
    deleted_at: null,
    purge_state: null,
    sealed_sha256: null,
    tombstone: null,
    hold_reason: null,
    hold_by: null,
    hold_at: null,
    allow_reassign: 0,
  };
  const state = formState(row, []);
  const form = formJson(state, d.fields, deps.links, encoded);
  return async (trx) => {
    await insertForm(trx, p, row);
    await recordFormEvent(trx, p, 'form.created', state, now);
    return form;
  };
}
